"""Format 1 to 2, settlement: ``kong_payments`` and ``settlement`` become ``payments`` rules.

Each kong payment becomes a rule ``at: kong``; the end-of-wall checks of ``settlement``
become rules ``at: wall_end`` (flower pigs, the ready check, refunds) and ``at: win`` (kong
money moved to the winner), written as the expressions the format-1 code applied.  A
flower pig is a seat holding three suits; "ready" (format 1) is a seat that is not one and
whose hand waits on a winning tile.  Comments of the entries kept are kept.

A file that extends another may set only some fields of an entry its parent defines: a kong
payment without ``kind`` keeps its fields under the same name (the parent's rule has the
rest).  A check of ``settlement`` is written whole from its own fields and the format-1
defaults.
"""

from __future__ import annotations

from typing import Any

from ruamel.yaml.comments import CommentedMap

KINDS = {"exposed": ("exposed", "direct"), "added": ("added", "added"),
         "concealed": ("concealed", "concealed")}  # fmt: skip
PIG = "count(suits_of({})) == 3"
NOT_PIG = "count(suits_of({})) < 3"
READY = "ready({0}) and " + NOT_PIG.format("{0}")
AMOUNTS = {"max": "most_win(payee)", "min": "least_win(payee)"}


def migrate(doc: Any) -> None:
    """Rewrite ``doc`` (a round-trip mapping of a whole ruleset file) in place."""
    if not hasattr(doc, "insert"):
        return
    rules: list[tuple[str, CommentedMap]] = []
    kongs = doc.get("kong_payments")
    if isinstance(kongs, dict):
        for name, entry in kongs.items():
            if isinstance(entry, dict) and "kind" in entry:
                _kong_rule(entry, str(name))
            elif isinstance(entry, dict):  # a parent's entry, partly set again
                entry.pop("paid", None)
            rules.append((str(name), entry))
    checks = doc.get("settlement")
    if isinstance(checks, dict):
        rules.extend(_end_rules(checks, doc.get("options") or {}))
    if not rules and "kong_payments" not in doc and "settlement" not in doc:
        return
    keys = list(doc)
    first = min(keys.index(k) for k in ("kong_payments", "settlement") if k in doc)
    for key in ("kong_payments", "settlement"):
        if key in doc:
            del doc[key]
    payments = doc.get("payments")
    if not isinstance(payments, dict):
        payments = CommentedMap()
        doc.insert(first, "payments", payments)
    for name, entry in rules:
        payments[name] = entry


def _kong_rule(entry: CommentedMap, name: str) -> None:
    kind, word = KINDS.get(str(entry.get("kind")), ("exposed", "direct"))
    label = _label(entry.get("name"), name)
    entry.pop("kind", None)
    entry.pop("paid", None)  # format 1 read it nowhere: kong money was paid at once
    at = 1 if "name" in entry else 0
    entry.insert(at, "at", "kong")
    entry.insert(at + 1, "when", f'kong_kind == "{kind}"')
    entry.insert(at + 3, "payees", "{kong_seat}")
    entry.insert(at + 5, "reason", f"{label} ({word} kong)")
    _order(entry, ("name", "at", "when", "payers", "payees", "amount", "reason"))


def _order(entry: CommentedMap, first: tuple[str, ...]) -> None:
    """Put the ``first`` keys first, in that order, the others after them as they were."""
    for index, key in enumerate(k for k in first if k in entry):
        value = entry.pop(key)
        entry.insert(index, key, value)


def _label(name: Any, fallback: str) -> str:
    if isinstance(name, dict):
        return str(name.get("zh") or name.get("en") or fallback)
    return str(name) if name else fallback


def _rule(name: dict[str, str], at: str, source: Any, **fields: Any) -> CommentedMap:
    rule = CommentedMap()
    rule["name"] = CommentedMap(name)
    rule["name"].fa.set_flow_style()
    rule["at"] = at
    for key, value in fields.items():
        if value is not None:
            rule[key] = value
    if source is not None:
        rule["source"] = source
    return rule


def _end_rules(checks: Any, options: Any) -> list[tuple[str, CommentedMap]]:
    source = checks.get("source")
    made: list[tuple[str, CommentedMap]] = []
    pig = checks.get("flower_pig")
    if isinstance(pig, dict):
        fixed = str(pig.get("amount", 0))
        value = str(pig.get("value", "max"))
        amounts = (
            {"fixed": fixed}
            if value == "fixed"
            else {v: f"if ready(payee) then {a} else {fixed}" for v, a in AMOUNTS.items()}
        )
        for suffix, when, amount in _by_value(value, amounts, options):
            made.append((
                "flower_pig" + suffix,
                _rule(
                    {"zh": "花猪", "en": "flower pig"}, "wall_end", pig.get("source", source),
                    enabled=pig.get("enabled", False), when=when,
                    payers=f"seats_where(players_in_game, {PIG.format('it')})",
                    payees=f"seats_where(players_in_game, {NOT_PIG.format('it')})",
                    amount=amount, reason="花猪: holds every suit",
                ),
            ))  # fmt: skip
    check = checks.get("ready_check")
    if isinstance(check, dict):
        value = str(check.get("value", "max"))
        payers = f"not ({READY.format('it')})"
        if not check.get("flower_pigs_pay", True):
            payers += f" and {NOT_PIG.format('it')}"
        amounts = {**AMOUNTS, "fixed": str(check.get("amount", 0))}
        for suffix, when, amount in _by_value(value, amounts, options):
            shown = suffix[1:] or value
            made.append((
                "ready_check" + suffix,
                _rule(
                    {"zh": "查叫", "en": "ready check"}, "wall_end", check.get("source", source),
                    enabled=check.get("enabled", False), when=when,
                    payers=f"seats_where(players_in_game, {payers})",
                    payees=f"seats_where(players_in_game, {READY.format('it')})",
                    amount=amount, reason=f"查叫: not ready, {shown} value",
                ),
            ))  # fmt: skip
    if "refund" in checks:
        made.append((
            "refund",
            _rule(
                {"zh": "退税", "en": "kong money returned"}, "wall_end", source,
                over="kong", enabled=checks["refund"],
                when=f"paid_to in players_in_game and not ({READY.format('paid_to')})",
                payers="{paid_to}", payees="{paid_by}", amount="paid_amount",
                reason="退税: kong money returned",
            ),
        ))  # fmt: skip
    if "transfer" in checks:
        made.append((
            "transfer",
            _rule(
                {"zh": "呼叫转移", "en": "kong money transferred"}, "win", source,
                over="kong", enabled=checks["transfer"],
                # 刚才所杠牌所得 (002_c4a44432eae6dd73.txt line 35): the kong just made only
                when="kong_discard and not self_draw and paid_to == discarder"
                " and paid_at_last_kong",
                payers="{discarder}", payees="{winner}", amount="paid_amount", together=True,
                reason="kong money transferred",
            ),
        ))  # fmt: skip
    return made


def _by_value(
    value: str, amounts: dict[str, str], options: Any
) -> list[tuple[str, str | None, str]]:
    """(name suffix, when, amount) for a ``value`` that is a literal or names an option: one
    rule per value the option allows, each firing when the option has it."""
    if not value.startswith("option."):
        return [("", None, amounts.get(value, amounts.get("fixed", "0")))]
    name = value[len("option.") :]
    allowed = (options.get(name) or {}).get("allowed") or list(amounts)
    return [(f"_{v}", f'{value} == "{v}"', amounts[str(v)]) for v in allowed if str(v) in amounts]
