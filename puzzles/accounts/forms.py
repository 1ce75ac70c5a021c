"""Forms: signing up and the player's preferences."""

from __future__ import annotations

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError

from ..models import AccountName, Preferences
from . import usernames
from .players import PREFERENCES

MIXED_SCRIPTS = (
    "This username mixes alphabets ({scripts}), which lets one name pass for another. "
    "Write it in one alphabet."
)
LOOKS_TAKEN = "This username looks like one that is already taken. Choose another."


class SignupForm(UserCreationForm):
    email = forms.EmailField(
        required=False, help_text="Optional; needed only to reset a forgotten password."
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")

    def clean_username(self) -> str:
        """Besides Django's checks: one alphabet, and not a look-alike of a name taken."""
        username = super().clean_username()
        if not username:
            return username
        if usernames.mixes_scripts(username):
            scripts = " and ".join(sorted(usernames.scripts(username))) or "several"
            raise ValidationError(MIXED_SCRIPTS.format(scripts=scripts), code="mixed_scripts")
        if AccountName.objects.filter(skeleton=usernames.skeleton(username)).exists():
            raise ValidationError(LOOKS_TAKEN, code="looks_taken")
        return username


class PreferencesForm(forms.ModelForm):
    class Meta:
        model = Preferences
        fields = PREFERENCES
        widgets = {"theme": forms.RadioSelect}
