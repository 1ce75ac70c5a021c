"""Usernames as Django's log-in reads them, and as people read them.

`login_key` is the form a typed name is counted under by the log-in and sign-up limits:
what Django's `UsernameField` makes of it (surrounding spaces stripped, Unicode NFKC, as
`AbstractBaseUser.normalize_username` does), case folded, since sign-up refuses names that
differ only in case. Fullwidth letters, stray spaces and capitals are one account to it.

`skeleton` goes further, after Unicode TR39: characters that look alike map to one
representative (Cyrillic small a, U+0430, and Latin "a"; zero and "O"; "l" and "1"), so
two names with one skeleton read the same. Case variants join the groups ("I" with "i",
hence "l" and "1" with them too), since names compare case folded. The look-alike table is the one
`confusable_homoglyphs` ships (Unicode's confusables.txt), pinned: a newer table may move
some skeletons, and the stored ones (models.AccountName) would then need recomputing.
"""

from __future__ import annotations

import unicodedata
from functools import cache

from confusable_homoglyphs import confusables
from confusable_homoglyphs.categories import unique_aliases


def login_key(raw: str) -> str:
    """The name Django authenticates for `raw`, case folded: the key of the limits."""
    return unicodedata.normalize("NFKC", raw.strip()).strip().casefold()


@cache
def _representatives() -> dict[str, str]:
    """Every character of the look-alike table -> one member of its group (look-alikes
    and case variants): an ASCII lowercase letter, else an ASCII digit, else the lowest
    code point."""
    parent: dict[str, str] = {}

    def find(ch: str) -> str:
        while parent.setdefault(ch, ch) != ch:
            parent[ch] = parent[parent[ch]]
            ch = parent[ch]
        return ch

    for ch, looks in confusables.confusables_data.items():
        for look in looks:
            other = look["c"].replace("\u200e", "")  # the table marks right-to-left ones
            if len(ch) == 1 and len(other) == 1:
                parent[find(ch)] = find(other)
    for upper in "ABCDEFGHIJKLMNOPQRSTUVWXYZ":  # names compare case folded: "O" joins "o"
        parent[find(upper)] = find(upper.lower())
    groups: dict[str, list[str]] = {}
    for ch in parent:
        groups.setdefault(find(ch), []).append(ch)

    def preference(ch: str) -> tuple:
        return (not (ch.isascii() and ch.islower()), not (ch.isascii() and ch.isdigit()), ch)

    result = {}
    for members in groups.values():
        best = min(members, key=preference)
        result.update(dict.fromkeys(members, best))
    return result


def skeleton(name: str) -> str:
    """What `name` looks like: equal for names a reader would take for one another."""
    table = _representatives()
    return "".join(table.get(ch, ch) for ch in login_key(name))


def mixes_scripts(name: str) -> bool:
    """True for a name that mixes alphabets (Latin and Cyrillic, say), beyond digits and
    punctuation: the usual way to pass one name off as another."""
    return confusables.is_mixed_script(name) or bool(confusables.is_dangerous(name))


def scripts(name: str) -> set[str]:
    """The alphabets a name uses, for messages."""
    return {alias.capitalize() for alias in unique_aliases(name)} - {"Common"}
