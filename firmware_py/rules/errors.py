"""The engine's errors: one root, one leaf per kind of mistake."""


class RulesError(Exception):
    """Root of every error the rules engine raises."""


class IllegalMove(RulesError):
    """An action the rules forbid now; `str()` is a sentence a player can read."""


class BadTile(RulesError):
    """Text or numbers that do not name a domino."""


class BadOptions(RulesError):
    """An unknown preset or option, or a value an option does not take."""


class BadDeal(RulesError):
    """A player count or set the options cannot deal for."""


class BadAction(RulesError):
    """A move that is not well formed (as opposed to well formed but illegal)."""
