"""Log-in, sign-up and password-reset views with rate limits per client and per account."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from django.views.decorators.http import require_http_methods

from . import limits
from .forms import SignupForm
from .limits import client_ip, pair
from .usernames import login_key

# Marked here, translated where they are shown (_too_many, _signup_refused).
TOO_MANY = gettext_noop("Too many attempts from here. Wait a few minutes and try again.")
TOO_MANY_FOR_LOGIN = gettext_noop(
    "Too many attempts to log in to this account from devices it does not know. "
    "Wait a quarter of an hour and try again, or reset your password: the link we e-mail "
    "lets this device in."
)
TOO_MANY_FOR_ACCOUNT = gettext_noop(
    "Too many attempts to sign up with this username or e-mail address. "
    "Wait a while and try again, or choose another username."
)


def _too_many(view, form, reason: str = TOO_MANY) -> HttpResponse:
    """The view's page, an empty form and the reason: what was sent is not even checked."""
    return view.render_to_response(view.get_context_data(form=form, limited=_(reason)), status=429)


def login_refusal(request: HttpRequest, account: str) -> str | None:
    """Why this client may not try to log in to `account` now, or None."""
    ip = client_ip(request)
    if limits.exceeded(limits.LOGIN_PER_CLIENT, ip):
        return TOO_MANY
    if not account:
        return None
    if limits.exceeded(limits.LOGIN_PER_PAIR, pair(ip, account)):
        return TOO_MANY
    if limits.exceeded(limits.LOGIN_PER_ACCOUNT, account) and not limits.is_known(request, account):
        return TOO_MANY_FOR_LOGIN
    return None


class LoginView(auth_views.LoginView):
    """Django's log-in, refusing a client after too many failures, a client on one account
    after a few, and the clients an account does not know after many on that account."""

    def _account(self) -> str:
        return login_key(self.request.POST.get("username", ""))

    def post(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        reason = login_refusal(request, self._account())
        if reason is not None:
            return _too_many(self, self.get_form_class()(request), reason)
        return super().post(request, *args, **kwargs)

    def form_invalid(self, form) -> HttpResponse:
        ip, account = client_ip(self.request), self._account()
        limits.count(limits.LOGIN_PER_CLIENT, ip)
        if account:
            limits.count(limits.LOGIN_PER_PAIR, pair(ip, account))
            limits.count(limits.LOGIN_PER_ACCOUNT, account)
        return super().form_invalid(form)

    def form_valid(self, form) -> HttpResponse:
        user = form.get_user()
        account = login_key(user.get_username())
        # This client's lock only: other clients' failures on the account still count.
        limits.reset(limits.LOGIN_PER_PAIR, pair(client_ip(self.request), account))
        response = super().form_valid(form)
        limits.remember(self.request, response, user)
        return response


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    """Django's new-password form; the device that used the mailed link is the owner's,
    so it gets past a lock on the account the way a known device does."""

    def form_valid(self, form) -> HttpResponse:
        account = login_key(form.user.get_username())
        response = super().form_valid(form)
        limits.reset(limits.LOGIN_PER_PAIR, pair(client_ip(self.request), account))
        # Under the new password: the devices known before are strangers now.
        limits.remember(self.request, response, form.user)
        return response


class PasswordChangeView(auth_views.PasswordChangeView):
    """Django's password change, taking a few tries per account and per client: each
    checks the old password, a full hash. The device that set the new password stays
    known to the account; every other is forgotten with the old password."""

    def post(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        checks = [
            (limits.PASSWORD_CHANGE_PER_CLIENT, client_ip(request)),
            (limits.PASSWORD_CHANGE_PER_ACCOUNT, f"user:{request.user.pk}"),
        ]
        if any(limits.exceeded(limit, who) for limit, who in checks):
            return _too_many(self, self.get_form_class()(request.user))
        for limit, who in checks:
            limits.count(limit, who)
        return super().post(request, *args, **kwargs)

    def form_valid(self, form) -> HttpResponse:
        response = super().form_valid(form)
        limits.remember(self.request, response, form.user)
        return response


class PasswordResetView(auth_views.PasswordResetView):
    """Django's password reset, sending at most a few mails per client and per address."""

    def post(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        email = request.POST.get("email", "")[:254]
        ip = client_ip(request)
        if limits.exceeded(limits.RESET_PER_CLIENT, ip) or limits.exceeded(
            limits.RESET_PER_ACCOUNT, email
        ):
            return _too_many(self, self.get_form_class()())
        limits.count(limits.RESET_PER_CLIENT, ip)
        limits.count(limits.RESET_PER_ACCOUNT, email)
        return super().post(request, *args, **kwargs)


def _signup_names(request: HttpRequest) -> list[str]:
    """What a sign-up attempt is counted against besides the client: the username (as
    Django will store it) and the e-mail address it tries, each when given."""
    username = login_key(request.POST.get("username", ""))
    email = request.POST.get("email", "").strip().casefold()
    names = []
    if username:
        names.append(f"user:{username}")
    if email:
        names.append(f"email:{email}")
    return names


def _next_page(request: HttpRequest) -> str:
    """Where the player was (a game, say), to go back to after signing up: a path on this
    site only, else nothing."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    safe = url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return target if safe and target.startswith("/") else ""


def _signup_refused(request: HttpRequest, reason: str, initial: dict | None = None) -> HttpResponse:
    """The sign-up page with the reason and a form that checked nothing; a 429."""
    context = {
        "form": SignupForm(initial=initial),
        "limited": _(reason),
        "next": _next_page(request),
    }
    return render(request, "registration/signup.html", context, status=429)


def _signup_limited(request: HttpRequest) -> HttpResponse | None:
    """Count the attempt against the client, the username and the address, each alone and
    with the client; the refusal when one of them has used up its limit."""
    ip, names = client_ip(request), _signup_names(request)
    if limits.exceeded(limits.SIGNUP_PER_CLIENT, ip):
        return _signup_refused(request, TOO_MANY)
    if any(
        limits.exceeded(limits.SIGNUP_PER_PAIR, pair(ip, name))
        or limits.exceeded(limits.SIGNUP_PER_ACCOUNT, name)
        for name in names
    ):
        typed = {f: request.POST.get(f, "")[:254] for f in ("username", "email")}
        return _signup_refused(request, TOO_MANY_FOR_ACCOUNT, typed)
    limits.count(limits.SIGNUP_PER_CLIENT, ip)
    for name in names:
        limits.count(limits.SIGNUP_PER_PAIR, pair(ip, name))
        limits.count(limits.SIGNUP_PER_ACCOUNT, name)
    return None


@require_http_methods(["GET", "HEAD", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """Create an account; a guest's games move to it."""
    back = _next_page(request)
    if request.user.is_authenticated:
        return redirect(back or "puzzles:home")
    form = SignupForm(request.POST or None)
    if request.method == "POST":
        refused = _signup_limited(request)
        if refused is not None:
            return refused
        if form.is_valid():
            user = form.save()
            login(request, user)
            messages.success(
                request,
                _("Welcome, %(username)s! Your games are saved to your account.")
                % {"username": user.username},
            )
            response = redirect(back or "puzzles:home")
            limits.remember(request, response, user)  # the new owner's device is known
            return response
    return render(request, "registration/signup.html", {"form": form, "next": back})
