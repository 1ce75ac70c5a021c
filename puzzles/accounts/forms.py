"""Forms: signing up and the player's preferences."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from ..models import AccountName, Preferences
from . import usernames
from .players import PREFERENCES

MIXED_SCRIPTS = _(
    # Translators: %(scripts)s names the alphabets, e.g. "Cyrillic and Latin".
    "This username mixes alphabets (%(scripts)s), which lets one name pass for another. "
    "Write it in one alphabet."
)
LOOKS_TAKEN = _("This username looks like one that is already taken. Choose another.")


# Django's password rules (AUTH_PASSWORD_VALIDATORS), said in one line.
PASSWORD_RULES = _("At least 8 characters, not too common, not all digits, not like your name.")


class SignupForm(UserCreationForm):
    """A name, one password (typed once: the page can show it) and an optional e-mail
    address; the password meets the same validators as everywhere on the site."""

    password1 = forms.CharField(
        label=_("Password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=PASSWORD_RULES,
    )
    password2 = None  # no confirmation field: the password can be shown instead
    email = forms.EmailField(
        required=False,
        label=_("E-mail (optional)"),
        help_text=_("Only to reset a forgotten password."),
    )
    field_order = ["username", "password1", "email"]

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")
        help_texts = {"username": _("Letters, digits and @ . + - _ only.")}
        labels = {"username": _("Name")}

    def validate_passwords(self, *args, **kwargs) -> None:
        """One password: nothing to match it with."""

    def _post_clean(self) -> None:
        super()._post_clean()
        self.validate_password_for_user(self.instance, password_field_name="password1")

    def clean_username(self) -> str:
        """Besides Django's checks: one alphabet, and not a look-alike of a name taken."""
        username = super().clean_username()
        if not username:
            return username
        if usernames.mixes_scripts(username):
            # Translators: joins the names of alphabets: "Cyrillic and Latin".
            scripts = str(_(" and ")).join(sorted(usernames.scripts(username))) or _("several")
            raise ValidationError(MIXED_SCRIPTS % {"scripts": scripts}, code="mixed_scripts")
        if AccountName.objects.filter(skeleton=usernames.skeleton(username)).exists():
            raise ValidationError(LOOKS_TAKEN, code="looks_taken")
        return username


class PreferencesForm(forms.ModelForm):
    # One of the languages shipped, or the browser's; each named in its own language.
    language = forms.ChoiceField(
        label=_("Language"),
        required=False,
        choices=lambda: [("", _("The browser's")), *settings.LANGUAGES],
        help_text=_("The site's language, here and on your other devices once signed in."),
    )

    class Meta:
        model = Preferences
        fields = (*PREFERENCES, "language")
        widgets = {"theme": forms.RadioSelect}
        # The model's fields have no verbose_name (one would need a migration): their
        # labels, as Django would make them from the field names, are given here.
        labels = {
            "mark_mistakes": _("Mark mistakes"),
            "auto_remove_notes": _("Auto remove notes"),
            "auto_notes": _("Auto notes"),
            "compact_places": _("Compact places"),
            "show_timer": _("Show timer"),
            "digit_first": _("Digit first"),
            "theme": _("Theme"),
        }
