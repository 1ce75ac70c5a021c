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


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """Create an account; a guest's games move to it."""
    if request.user.is_authenticated:
        return redirect("puzzles:home")
    form = SignupForm(request.POST or None)
    if request.method == "POST":
        ip = client_ip(request)
        if ratelimit.exceeded(ratelimit.SIGNUP_PER_CLIENT, ip):
            context = {"form": SignupForm(), "limited": TOO_MANY}
            return render(request, "registration/signup.html", context, status=429)
        ratelimit.count(ratelimit.SIGNUP_PER_CLIENT, ip)
        if form.is_valid():
            user = form.save()
            login(request, user)
            messages.success(
                request, f"Welcome, {user.username}! Your games are saved to your account."
            )
            return redirect("puzzles:home")
    return render(request, "registration/signup.html", {"form": form})
