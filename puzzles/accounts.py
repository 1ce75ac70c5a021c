"""Log-in, sign-up and password-reset views with rate limits per client and per account."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from . import ratelimit
from .forms import SignupForm
from .ratelimit import client_ip

TOO_MANY = "Too many attempts from here. Wait a few minutes and try again."
TOO_MANY_FOR_ACCOUNT = (
    "Too many attempts to sign up with this username or e-mail address. "
    "Wait an hour and try again, or choose another username."
)


def _too_many(view, form) -> HttpResponse:
    """The view's page, an empty form and the reason: what was sent is not even checked."""
    return view.render_to_response(view.get_context_data(form=form, limited=TOO_MANY), status=429)


class LoginView(auth_views.LoginView):
    """Django's log-in, refusing a client or an account after too many failures."""

    def post(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        username = request.POST.get("username", "")[:150]
        if ratelimit.exceeded(ratelimit.LOGIN_PER_CLIENT, client_ip(request)) or ratelimit.exceeded(
            ratelimit.LOGIN_PER_ACCOUNT, username
        ):
            return _too_many(self, self.get_form_class()(request))
        return super().post(request, *args, **kwargs)

    def form_invalid(self, form) -> HttpResponse:
        ratelimit.count(ratelimit.LOGIN_PER_CLIENT, client_ip(self.request))
        ratelimit.count(ratelimit.LOGIN_PER_ACCOUNT, self.request.POST.get("username", "")[:150])
        return super().form_invalid(form)

    def form_valid(self, form) -> HttpResponse:
        ratelimit.reset(ratelimit.LOGIN_PER_ACCOUNT, form.get_user().get_username())
        return super().form_valid(form)


class PasswordResetView(auth_views.PasswordResetView):
    """Django's password reset, sending at most a few mails per client and per address."""

    def post(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        email = request.POST.get("email", "")[:254]
        ip = client_ip(request)
        if ratelimit.exceeded(ratelimit.RESET_PER_CLIENT, ip) or ratelimit.exceeded(
            ratelimit.RESET_PER_ACCOUNT, email
        ):
            return _too_many(self, self.get_form_class()())
        ratelimit.count(ratelimit.RESET_PER_CLIENT, ip)
        ratelimit.count(ratelimit.RESET_PER_ACCOUNT, email)
        return super().post(request, *args, **kwargs)


def _signup_names(request: HttpRequest) -> list[str]:
    """What a sign-up attempt is counted against besides the client: the username and the
    e-mail address it tries, each when given."""
    username = request.POST.get("username", "")[:150].strip()
    email = request.POST.get("email", "")[:254].strip()
    names = []
    if username:
        names.append(f"user:{username}")
    if email:
        names.append(f"email:{email}")
    return names


def _signup_refused(request: HttpRequest, reason: str, initial: dict | None = None) -> HttpResponse:
    """The sign-up page with the reason and a form that checked nothing; a 429."""
    context = {"form": SignupForm(initial=initial), "limited": reason}
    return render(request, "registration/signup.html", context, status=429)


def _signup_limited(request: HttpRequest) -> HttpResponse | None:
    """Count the attempt against the client, the username and the address; the refusal
    when one of them has used up its limit."""
    ip, names = client_ip(request), _signup_names(request)
    if ratelimit.exceeded(ratelimit.SIGNUP_PER_CLIENT, ip):
        return _signup_refused(request, TOO_MANY)
    if any(ratelimit.exceeded(ratelimit.SIGNUP_PER_ACCOUNT, name) for name in names):
        typed = {f: request.POST.get(f, "")[:254] for f in ("username", "email")}
        return _signup_refused(request, TOO_MANY_FOR_ACCOUNT, typed)
    ratelimit.count(ratelimit.SIGNUP_PER_CLIENT, ip)
    for name in names:
        ratelimit.count(ratelimit.SIGNUP_PER_ACCOUNT, name)
    return None


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """Create an account; a guest's games move to it."""
    if request.user.is_authenticated:
        return redirect("puzzles:home")
    form = SignupForm(request.POST or None)
    if request.method == "POST":
        refused = _signup_limited(request)
        if refused is not None:
            return refused
        if form.is_valid():
            user = form.save()
            login(request, user)
            messages.success(
                request, f"Welcome, {user.username}! Your games are saved to your account."
            )
            return redirect("puzzles:home")
    return render(request, "registration/signup.html", {"form": form})
