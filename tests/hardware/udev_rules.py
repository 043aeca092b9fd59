"""A small udev: parses rule files and applies them to a described device, as udev(7) says.

Enough of udev for the project's rule files, and strict about the rest: an unknown key,
an operator a key does not take, a GOTO without its LABEL or a malformed line is a
`RuleSyntaxError`. Matching follows udev(7): a pattern is a shell glob with `|` between
alternatives; KERNELS, SUBSYSTEMS, DRIVERS and ATTRS{} of one rule must all match the
same device, the device itself or one of its parents.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from pathlib import Path

MATCH_ONLY = {"ACTION", "KERNEL", "SUBSYSTEM", "DRIVER", "KERNELS", "SUBSYSTEMS", "DRIVERS",
              "ATTRS"}
ASSIGN_ONLY = {"GROUP", "OWNER", "MODE", "SYMLINK", "GOTO", "LABEL", "RUN"}
BOTH = {"ENV", "ATTR", "TAG"}
PARENT_KEYS = {"KERNELS", "SUBSYSTEMS", "DRIVERS", "ATTRS"}
TOKEN = re.compile(r'\s*([A-Z_]+)(?:\{([^}]+)\})?\s*(==|!=|\+=|-=|:=|=)\s*"([^"]*)"\s*(,|$)')


class RuleSyntaxError(Exception):
    pass


@dataclass(frozen=True)
class Term:
    key: str
    attr: str | None
    op: str
    value: str


@dataclass(frozen=True)
class Rule:
    where: str
    terms: tuple[Term, ...]


@dataclass
class Node:
    """One device of the chain: the tty itself, then its parents up to the controller."""

    kernel: str
    subsystem: str
    driver: str = ""
    attrs: dict[str, str] = field(default_factory=dict)


@dataclass
class Device:
    action: str
    chain: list[Node]  # chain[0] is the device the event is about
    env: dict[str, str] = field(default_factory=dict)
    group: str = "root"
    mode: str = "0600"
    symlinks: list[str] = field(default_factory=list)
    run: list[str] = field(default_factory=list)  # RUN+= programs, as written


def parse_rules(path: Path) -> list[Rule]:
    rules = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        where = f"{path.name}:{number}"
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if line.rstrip().endswith("\\"):
            raise RuleSyntaxError(f"{where}: continued lines are not used here")
        terms, pos = [], 0
        while pos < len(line):
            found = TOKEN.match(line, pos)
            if not found:
                raise RuleSyntaxError(f"{where}: cannot read {line[pos:]!r}")
            key, attr, op, value, _ = found.groups()
            known = MATCH_ONLY | ASSIGN_ONLY | BOTH
            if key not in known:
                raise RuleSyntaxError(f"{where}: unknown key {key}")
            if (key in {"ENV", "ATTR", "ATTRS"}) != (attr is not None):
                raise RuleSyntaxError(f"{where}: {key} {'needs' if attr is None else 'takes no'} "
                                      "{name}")
            if key in MATCH_ONLY and op not in ("==", "!="):
                raise RuleSyntaxError(f"{where}: {key} can only be matched, not {op}")
            if key in ASSIGN_ONLY and op in ("==", "!="):
                raise RuleSyntaxError(f"{where}: {key} can only be assigned, not matched")
            terms.append(Term(key, attr, op, value))
            pos = found.end()
        rules.append(Rule(where, tuple(terms)))
    labels = [t.value for r in rules for t in r.terms if t.key == "LABEL"]
    if len(labels) != len(set(labels)):
        raise RuleSyntaxError(f"{path.name}: a LABEL given twice")
    for rule in rules:
        for term in rule.terms:
            if term.key == "GOTO" and term.value not in labels:
                raise RuleSyntaxError(f"{rule.where}: GOTO {term.value} has no LABEL")
    return rules


def glob(pattern: str, text: str) -> bool:
    return any(fnmatchcase(text, alternative) for alternative in pattern.split("|"))


def substitute(value: str, device: Device) -> str:
    return re.sub(r"\$env\{([^}]+)\}", lambda m: device.env.get(m.group(1), ""), value)


def _own_value(term: Term, device: Device) -> str:
    if term.key == "ACTION":
        return device.action
    if term.key == "ENV":
        return device.env.get(term.attr or "", "")
    if term.key in ("KERNEL", "SUBSYSTEM", "DRIVER", "ATTR"):
        # The device's own KERNEL, ... are what KERNELS, ... read on its first node.
        return _node_value(term.key + "S", term.attr, device.chain[0]) or ""
    raise RuleSyntaxError(f"cannot match {term.key}")


def _node_value(key: str, attr: str | None, node: Node) -> str | None:
    if key == "KERNELS":
        return node.kernel
    if key == "SUBSYSTEMS":
        return node.subsystem
    if key == "DRIVERS":
        return node.driver
    return node.attrs.get(attr or "")  # ATTRS: an absent attribute never matches


def _matches(rule: Rule, device: Device) -> bool:
    own = [t for t in rule.terms if t.op in ("==", "!=") and t.key not in PARENT_KEYS]
    for term in own:
        if glob(term.value, _own_value(term, device)) != (term.op == "=="):
            return False
    parent = [t for t in rule.terms if t.op in ("==", "!=") and t.key in PARENT_KEYS]
    if not parent:
        return True
    for node in device.chain:
        values = [(_node_value(t.key, t.attr, node), t) for t in parent]
        if all(v is not None and glob(t.value, v) == (t.op == "==") for v, t in values):
            return True
    return False


def apply_rules(files: list[Path], device: Device) -> Device:
    """Run every file's rules in order over `device`; returns it with what they set."""
    for path in files:
        rules = parse_rules(path)
        index = 0
        while index < len(rules):
            rule = rules[index]
            index += 1
            if not _matches(rule, device):
                continue
            for term in rule.terms:
                value = substitute(term.value, device)
                if term.key == "GROUP":
                    device.group = value
                elif term.key == "MODE":
                    device.mode = value
                elif term.key == "SYMLINK":
                    device.symlinks = ([*device.symlinks, *value.split()] if term.op == "+="
                                       else value.split())
                elif term.key == "RUN":
                    device.run = [*device.run, value] if term.op == "+=" else [value]
                elif term.key == "ENV" and term.op in ("=", ":="):
                    device.env[term.attr or ""] = value
                elif term.key == "GOTO":
                    index = next(i for i, r in enumerate(rules)
                                 if Term("LABEL", None, "=", term.value) in r.terms)
                    break
    return device
