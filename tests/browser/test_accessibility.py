"""Accessibility (issue 14): axe-core finds no serious or critical violation on any page, in
any state of the game page, on a phone (390x844, touch) and a desktop (1280x800), in the
light and the dark theme; and a hint can be had with the keyboard alone, its words read out
and its cells named for what the hint marks.

The pages and states checked are the lists PAGES, ACCOUNT_PAGES and GAME_STATES below: a new
page is one more line there. axe-core (the copy axe-playwright-python ships) goes into each
page through Playwright's `evaluate`, which the DevTools protocol runs outside the page's
Content-Security-Policy, so the contexts keep the policy (and conftest's guard against its
violations) in force."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

import engine
from puzzles.accounts.players import Player
from puzzles.learn import examples
from puzzles.learn.practice import start_practice
from puzzles.models import DailyPuzzle, Game, Puzzle
from puzzles.play.sharing import share_path
from puzzles.pools.daily import today

from .board_helpers import DEVICES, blanks_of
from .helpers import daily_picks, wait_saved

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SERIOUS = {"serious", "critical"}
AXE = Axe()
# axe's default rules, and the one that checks that a control's name holds its visible text
# (a voice-control user says what they see), which axe still counts as experimental.
AXE_OPTIONS = {
    "resultTypes": ["violations"],
    "rules": {"label-content-name-mismatch": {"enabled": True}},
}
PASSWORD = "a-long-enough-passphrase-14"


@dataclass
class World:
    """What the pages are about: an account with solved games (history, statistics and its
    chart, a row on today's leaderboard) and a game in progress."""

    user: object
    playing: Game
    solved: Game
    practice: Game
    puzzles: list[Puzzle] = field(default_factory=list)


EASTER_MONSTER = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"

# Pages a guest sees, then pages of a logged-in account: (name, path or a function of the
# World that gives the path). Pages of new features go here.
Path = str | Callable[[World], str]
PAGES: list[tuple[str, Path]] = [
    ("home", "/"),
    ("daily", "/daily/"),
    ("daily, a day", lambda w: f"/daily/{today():%Y-%m-%d}/"),
    ("log in", "/accounts/login/"),
    ("sign up", "/accounts/signup/"),
    ("password reset", "/accounts/password_reset/"),
    ("password reset sent", "/accounts/password_reset/done/"),
    ("password reset, a bad link", "/accounts/reset/MQ/bad-token/"),
    ("password reset complete", "/accounts/reset/done/"),
    ("not found", "/no-such-page/"),
    ("offline", "/offline/"),
    ("analyse", "/analyse/"),
    ("analyse, Easter Monster", "/analyse/?puzzle=" + EASTER_MONSTER),
    ("analyse, several solutions", "/analyse/?puzzle=" + "." * 81),
]
ACCOUNT_PAGES: list[tuple[str, Path]] = [
    ("home, with a game in progress", "/"),
    ("daily, with a leaderboard row", "/daily/"),
    ("history, with games", "/history/"),
    ("stats, with solves and the chart", "/stats/"),
    ("settings", "/settings/"),
    ("password change", "/accounts/password_change/"),
    ("password change done", "/accounts/password_change/done/"),
    ("game, solved", lambda w: f"/games/{w.solved.pk}/"),
    ("technique guide", "/techniques/"),
    ("technique page, with its example", "/techniques/hidden-single/"),
    ("technique page, no example yet", "/techniques/jellyfish/"),
    ("your own puzzle", "/play/custom/"),
    ("shared link", lambda w: share_path(w.solved.puzzle_id)),
    ("practice game", lambda w: f"/games/{w.practice.pk}/"),
    ("analyse this position, asked", lambda w: f"/analyse/games/{w.playing.pk}/"),
]


def tap(page, selector: str) -> None:
    page.locator(selector).first.click()


def to_hint(level: int) -> Callable:
    def step(page, world: World) -> None:
        tap(page, '[data-action="hint"]' if level == 1 else '[data-action="hint-more"]')
        page.wait_for_selector(f"[data-hint-panel][data-hint-level='{level}']")

    return step


def notes_and_a_conflict(page, world: World) -> None:
    """Notes in one empty cell, and in another a digit its row already has."""
    givens = world.playing.puzzle.givens
    blanks = blanks_of(givens)
    tap(page, f'[data-cell="{blanks[-1]}"]')
    page.keyboard.press("Shift+1")
    page.keyboard.press("Shift+2")
    row = lambda i: [givens[i - i % 9 + c] for c in range(9) if givens[i - i % 9 + c] != "0"]  # noqa: E731
    clash = next(b for b in blanks[:-1] if row(b))
    digit = row(clash)[0]
    tap(page, f'[data-cell="{clash}"]')
    page.keyboard.press(digit)
    wait_saved(page)
    page.wait_for_selector("[data-cell][data-conflict]")


def close_hint(page, world: World) -> None:
    tap(page, '[data-action="hint-close"]')
    page.wait_for_selector("[data-hint-panel]", state="hidden")


def pause(page, world: World) -> None:
    tap(page, '[data-action="pause"]')
    page.wait_for_selector("[data-pause-cover]:not([hidden])")


def resume_and_ask_to_give_up(page, world: World) -> None:
    tap(page, '[data-action="pause"]')
    page.wait_for_selector("[data-pause-cover]", state="hidden")
    tap(page, '[data-action="give-up"]')
    page.wait_for_selector("dialog[data-confirm][open]")


def give_up(page, world: World) -> None:
    tap(page, "[data-confirm-ok]")
    page.wait_for_selector('[data-status="gave_up"]')


def show_how(page, world: World) -> None:
    tap(page, '[data-action="show-how"]')
    page.wait_for_selector("[data-walkthrough]:not([hidden])")


def marks_and_colours(page, world: World) -> None:
    """Corner and centre marks, a cell and a candidate coloured, the palette left open in
    candidate colouring."""
    blanks = blanks_of(world.playing.puzzle.givens)
    if page.locator("[data-intro]").is_visible():  # the marks give way to it until then
        tap(page, '[data-action="dismiss-intro"]')
    tap(page, f'[data-cell="{blanks[0]}"]')
    tap(page, '[data-action="colour"]')
    tap(page, '[data-colour-pick="4"]')
    tap(page, '[data-action="corner"]')
    tap(page, '[data-digit="2"]')
    tap(page, f'[data-cell="{blanks[1]}"]')
    tap(page, '[data-action="centre"]')
    tap(page, '[data-digit="5"]')
    tap(page, '[data-action="colour-candidates"]')
    tap(page, '[data-colour-pick="7"]')
    tap(page, '[data-digit="5"]')
    wait_saved(page)


def replay(page, world: World) -> None:
    tap(page, '[data-action="walk-close"]')
    tap(page, '[data-action="replay"]')
    page.wait_for_selector("[data-replay]:not([hidden])")


# The game page's states, each reached from the one before on the game in progress.
GAME_STATES: list[tuple[str, Callable]] = [
    ("game, playing", lambda page, world: None),
    ("game, hint level 1", to_hint(1)),
    ("game, hint level 2", to_hint(2)),
    ("game, hint level 3", to_hint(3)),
    ("game, hint closed", close_hint),
    ("game, notes and a conflict", notes_and_a_conflict),
    ("game, two-candidate cells marked", lambda page, world: tap(page, '[data-action="bivalue"]')),
    ("game, marks, colours and the palette", marks_and_colours),
    ("game, paused", pause),
    ("game, confirmation open", resume_and_ask_to_give_up),
    ("game, given up", give_up),
    ("game, show me how", show_how),
    ("game, replay", replay),
]


def make_world() -> World:
    """An account with three solved games, one of them today's easy daily, and a game in
    progress."""
    users = get_user_model()
    user = users.objects.create_user("reader", email="reader@example.com", password=PASSWORD)
    easy = list(Puzzle.objects.filter(difficulty="easy").order_by("pk"))
    medium = list(Puzzle.objects.filter(difficulty="medium").order_by("pk"))
    daily = DailyPuzzle.objects.filter(date=today(), difficulty="easy").get()
    solved = []
    kept = [(daily.puzzle, daily), (easy[3], None), (medium[1], None)]
    for n, (puzzle, daily_of) in enumerate(kept):
        solved.append(
            Game.objects.create(
                user=user,
                puzzle=puzzle,
                daily=daily_of,
                values=puzzle.solution,
                status=Game.Status.SOLVED,
                active_seconds=600 + 240 * n,
                ranked_seconds=600 + 240 * n,
                finished_at=timezone.now() - timezone.timedelta(days=2 - n),
            )
        )
    # A game of the medium daily's puzzle, but not as the daily: in progress on the home page.
    playing = Game.objects.create(user=user, puzzle=medium[0], values=medium[0].givens)
    practice = start_practice(Player(user=user), "hidden-single")
    return World(user, playing, solved[-1], practice, puzzles=easy + medium)


def pick_dailies() -> None:
    """Today's dailies from the stock, so that no page has to make a puzzle."""
    picks = daily_picks()
    Puzzle.objects.filter(pk__in=[p.pk for p in picks.values()]).update(served_at=timezone.now())
    for difficulty, puzzle in picks.items():
        DailyPuzzle.objects.create(date=today(), difficulty=difficulty, puzzle=puzzle)


def log_in(context, live_server, user) -> None:
    """The account's session cookie in the context, as if it had logged in."""
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    context.add_cookies(
        [{"name": cookie.key, "value": cookie.value, "url": live_server.url, "httpOnly": True}]
    )


@dataclass
class Finding:
    where: str
    rule: str
    impact: str
    help: str
    targets: list[str]


def why(node: dict) -> str:
    """The first reason axe gives for a node (a contrast ratio, a missing name)."""
    for check in node.get("any", []) + node.get("all", []) + node.get("none", []):
        if check.get("message"):
            return check["message"]
    return ""


def audit(page, where: str, findings: list[Finding], impacts: Counter) -> None:
    page.wait_for_load_state("networkidle")
    results = AXE.run(page, options=AXE_OPTIONS).response
    for violation in results["violations"]:
        impact = violation.get("impact") or "minor"
        impacts[impact] += len(violation["nodes"])
        if impact in SERIOUS:
            targets = [f"{' '.join(map(str, n['target']))}  ({why(n)})" for n in violation["nodes"]]
            findings.append(Finding(where, violation["id"], impact, violation["help"], targets))


# Each viewport and theme is a test of its own, so that the suite's processes share them.
@pytest.mark.parametrize("device", ["phone", "desktop"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_serious_on_any_page_or_state(
    browser, live_server, stock, capsys, device, scheme
):
    pick_dailies()
    examples.refresh_examples(scans=20)  # the guide's examples, from the stock
    findings: list[Finding] = []
    impacts: Counter = Counter()
    checked = 0
    errors: list[str] = []
    world = make_world()
    context = browser.new_context(**DEVICES[device], color_scheme=scheme, reduced_motion="reduce")
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    label = f"{device} {scheme}"
    for name, path in PAGES:
        page.goto(live_server.url + (path(world) if callable(path) else path))
        audit(page, f"{name} ({label})", findings, impacts)
        checked += 1
    log_in(context, live_server, world.user)
    for name, path in ACCOUNT_PAGES:
        page.goto(live_server.url + (path(world) if callable(path) else path))
        audit(page, f"{name} ({label})", findings, impacts)
        checked += 1
    page.goto(f"{live_server.url}/games/{world.playing.pk}/")
    page.wait_for_selector("[data-game][data-ready]")
    wait_saved(page)
    for name, step in GAME_STATES:
        step(page, world)
        audit(page, f"{name} ({label})", findings, impacts)
        checked += 1
    context.close()
    screens = len(PAGES) + len(ACCOUNT_PAGES) + len(GAME_STATES)
    tally = (
        f"axe, {label}: {checked} checks ({screens} pages and states); "
        f"violating nodes by impact: "
        + ", ".join(f"{i} {impacts[i]}" for i in ("critical", "serious", "moderate", "minor"))
    )
    report = "\n".join(
        f"{f.impact} {f.rule} on {f.where}: {f.help}\n    " + "\n    ".join(f.targets)
        for f in findings
    )
    assert not errors, errors
    with capsys.disabled():
        print("\n" + (report + "\n" if report else "") + tally)
    assert not findings, f"{len(findings)} serious or critical violations:\n{report}\n{tally}"


def tab_to(page, selector: str, limit: int = 120) -> None:
    """Press Tab until the focus is on the element, as a keyboard user would."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("s => document.activeElement.matches(s)", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


LIVE = """() => [...document.querySelectorAll(
    '[aria-live="polite"], [aria-live="assertive"], [role="status"], [role="alert"]'
  )].filter((el) => !el.closest("[hidden]"))"""


def live_texts(page) -> list[str]:
    return page.evaluate(f"() => ({LIVE})().map((el) => el.textContent)")


def start_with_the_keyboard(page) -> Game:
    pick_dailies()  # so that the home page need not make a puzzle
    page.goto(page.base + "/")
    tab_to(page, "[data-new-game=easy]")
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-game][data-ready]")
    wait_saved(page)
    return Game.objects.select_related("puzzle").get(pk=int(page.url.rstrip("/").split("/")[-1]))


def test_a_hint_with_the_keyboard_alone_is_read_out_and_its_cells_say_what_it_marks(page, stock):
    start_with_the_keyboard(page)
    page.keyboard.press("ArrowRight")  # the board has the focus
    tab_to(page, '[data-action="hint"]')
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-hint-panel][data-hint-level='1']")
    tab_to(page, '[data-action="hint-more"]')
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-hint-panel][data-hint-level='2']")

    text = page.locator("[data-hint-text]").inner_text().strip()
    assert text
    # The hint's words land in a live region, in exactly one.
    page.wait_for_function(
        f"text => ({LIVE})().some((el) => el.textContent.includes(text))", arg=text
    )
    holding = [t for t in live_texts(page) if text in t]
    assert len(holding) == 1, holding
    assert holding[0].startswith("Hint, 2 of 3"), holding
    # The panel that shows the words is not a live region itself (no second reading).
    assert page.evaluate(
        """() => { const p = document.querySelector("[data-hint-panel]");
                   return !p.closest("[aria-live], [role=status], [role=alert]")
                          && !p.querySelector("[aria-live], [role=status], [role=alert]"); }"""
    )

    # Each cell the hint draws says so in its name, with its place.
    marks = {
        "region": "part of the hint: where to look",
        "cause": "part of the hint: the cause",
        "target": "part of the hint: will change",
    }
    drawn = page.evaluate(
        """() => [...document.querySelectorAll("[data-cell][data-hint]")].map(
            (el) => [el.dataset.hint, el.getAttribute("aria-label")])"""
    )
    roles = {role for role, _ in drawn}
    assert "cause" in roles and "region" in roles and "target" not in roles, drawn
    for role, name in drawn:
        assert name.startswith("Row ") and ", column " in name, name
        assert marks[role] in name, (role, name)
    unmarked = page.locator("[data-cell]:not([data-hint])").first.get_attribute("aria-label")
    assert "part of the hint" not in unmarked

    # Esc puts the hint away, and the cells' names lose the mark.
    page.keyboard.press("Escape")
    page.wait_for_selector("[data-hint-panel]", state="hidden")
    names = page.evaluate(
        "() => [...document.querySelectorAll('[data-cell]')].map(c => c.getAttribute('aria-label'))"
    )
    assert not any("part of the hint" in n for n in names)


def test_a_conflict_is_said_and_the_pad_is_named_by_what_it_shows(page, stock):
    game = start_with_the_keyboard(page)
    givens = game.puzzle.givens
    at = givens.index("0")  # the page selects the first empty cell
    row = [i for i in range(at - at % 9, at - at % 9 + 9) if givens[i] != "0"]
    other = row[0]
    page.keyboard.press(givens[other])
    wait_saved(page)
    page.wait_for_selector(f'[data-cell="{at}"][data-conflict]')

    def place(i: int) -> str:
        return f"row {i // 9 + 1}, column {i % 9 + 1}"

    said = f"Conflict: the {givens[other]} in {place(at)} is also in {place(other)}."
    page.wait_for_function(
        f"said => ({LIVE})().some((el) => el.textContent.includes(said))", arg=said
    )
    name = page.get_attribute(f'[data-cell="{at}"]', "aria-label")
    assert name.startswith(f"{place(at).capitalize()}: {givens[other]}, conflicts with"), name

    # Every pad button's name starts with the digit it shows, then what is left of it.
    for digit in range(1, 10):
        button = page.locator(f'[data-digit="{digit}"]')
        left = button.locator("[data-left]").inner_text()
        # "5, 3 left" (Chromium puts a space before the unseen comma).
        expected = re.compile(rf"^{digit} ?, {left or 'none'} left$")
        assert page.get_by_role("button", name=expected).count() == 1, button.aria_snapshot()


def test_with_mistake_marking_on_a_wrong_digit_is_said(page, stock):
    page.goto(page.base + "/settings/")
    page.check('input[name="mark_mistakes"]')
    page.click('button[type="submit"]')
    page.wait_for_selector(".message.success")
    game = start_with_the_keyboard(page)
    solution = Puzzle.objects.get(pk=game.puzzle_id).solution
    at = game.puzzle.givens.index("0")
    # A digit that is wrong but clashes with nothing: a mistake, not a conflict.
    allowed = {str(d) for d in engine.candidates(game.puzzle.givens)[at]}
    wrong = next(d for d in sorted(allowed) if d != solution[at])
    page.keyboard.press(wrong)
    wait_saved(page)
    said = f"The {wrong} in row {at // 9 + 1}, column {at % 9 + 1} is a mistake."
    page.wait_for_function(
        f"said => ({LIVE})().some((el) => el.textContent.includes(said))", arg=said
    )
    assert page.get_attribute(f'[data-cell="{at}"]', "aria-label").endswith(", wrong")
