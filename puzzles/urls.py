from django.urls import path

from .accounts import views as accounts
from .learn import views as learn_views
from .play import analyse_views, api, sharing_views, views

app_name = "puzzles"

urlpatterns = [
    path("", views.home, name="home"),
    path("play/custom/", sharing_views.custom, name="custom"),
    path("play/<str:difficulty>/", views.play, name="play"),
    path("how-to-play/", learn_views.how_to_play, name="how_to_play"),
    path("techniques/", learn_views.techniques, name="techniques"),
    path("techniques/<str:slug>/", learn_views.technique_page, name="technique"),
    path("practice/<str:slug>/", learn_views.practice, name="practice"),
    path("analyse/", analyse_views.analyse, name="analyse"),
    path("analyse/games/<int:pk>/", analyse_views.analyse_game, name="analyse_game"),
    path("p/<str:code>", sharing_views.share, name="share"),
    path("daily/", views.daily_today, name="daily"),
    path("daily/<str:date>/", views.daily_day, name="daily_day"),
    path("daily/<str:date>/<str:difficulty>/", views.daily_play, name="daily_play"),
    path("games/<int:pk>/", views.game_page, name="game"),
    path("history/", views.history, name="history"),
    path("stats/", views.statistics_page, name="stats"),
    path("settings/", views.settings_page, name="settings"),
    path("settings/input/", views.input_mode, name="input_mode"),
    path("settings/intro/", views.intro_seen, name="intro_seen"),
    path("accounts/signup/", accounts.signup, name="signup"),
    path("api/games/<int:pk>", api.game_state, name="api_game"),
    path("api/games/<int:pk>/state", api.game_news, name="api_game_news"),
    path("api/games/<int:pk>/moves", api.moves, name="api_moves"),
    path("api/games/<int:pk>/changes", api.batch, name="api_changes"),
    path("api/games/<int:pk>/undo", api.undo, name="api_undo"),
    path("api/games/<int:pk>/redo", api.redo, name="api_redo"),
    path("api/games/<int:pk>/fill-notes", api.fill_notes, name="api_fill_notes"),
    path("api/games/<int:pk>/hint", api.hint, name="api_hint"),
    path("api/games/<int:pk>/apply-hint", api.apply_hint, name="api_apply_hint"),
    path("api/games/<int:pk>/reveal", api.reveal, name="api_reveal"),
    path("api/games/<int:pk>/check", api.check, name="api_check"),
    path("api/games/<int:pk>/pause", api.pause, name="api_pause"),
    path("api/games/<int:pk>/resume", api.resume, name="api_resume"),
    path("api/games/<int:pk>/give-up", api.give_up, name="api_give_up"),
    path("api/games/<int:pk>/path", api.solution_path, name="api_path"),
    path("api/games/<int:pk>/replay", api.replay, name="api_replay"),
]
