"""Forms: signing up and the player's preferences."""

from __future__ import annotations

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User

from .models import Preferences


class SignupForm(UserCreationForm):
    email = forms.EmailField(
        required=False, help_text="Optional; needed only to reset a forgotten password."
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")


class PreferencesForm(forms.ModelForm):
    class Meta:
        model = Preferences
        fields = ("mark_mistakes", "auto_remove_notes", "show_timer", "theme")
        widgets = {"theme": forms.RadioSelect}
