"""What a simulation says, in the players' terms, and what produced it.

:func:`provenance` names what produced a set of rows (ruleset and the hash of its resolved
content, options, preset, bots, master seed, mjrules version); ``simulate`` stores it as
Parquet key-value metadata and as columns of every row.  :class:`Summary` accumulates the
figures ``mjrules simulate`` prints, hand by hand in constant memory:

- 流局 rate: the share of hands nobody wins;
- per seat, 和了率 (the share of hands the seat wins) and 放铳率 (the share of hands it
  deals into a win, 点炮), with its mean points and their 95% confidence interval;
- 自摸 share: the share of wins that are self-drawn;
- dealer edge: per hand, the dealer's points less the mean points of the other seats,
  averaged over hands, with a 95% CI.  It means the same whether the first win ends the
  hand or several players win: the dealer's result against an average other seat;
- the turn of the first win (巡目): the first winner's own turns, its discards before the
  win plus one;
- claims (pung, chow, kong on a discard) per hand, and per seat whether it made one (副露);
  the payment tail: the 95th percentile of the points that change hands in a hand (the sum
  of the gains).
"""

from __future__ import annotations

import hashlib
import json
import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from dsl.ruleset import Ruleset

PROVENANCE = (
    "ruleset", "ruleset_hash", "options", "preset", "agents", "master_seed", "mjrules_version"
)  # fmt: skip
"""The keys of :func:`provenance`, also the names of the columns that repeat it in each row."""


# --- what produced the results ------------------------------------------------------------------


@lru_cache(maxsize=1)
def package_version() -> str:
    """The installed mjrules version, or the source tree's when it runs uninstalled."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("mjrules")
    except PackageNotFoundError:
        import tomllib
        from pathlib import Path

        pyproject = Path(__file__).resolve().parents[1] / "pyproject.toml"
        try:
            return str(tomllib.loads(pyproject.read_text("utf-8"))["project"]["version"])
        except (OSError, KeyError, tomllib.TOMLDecodeError):
            return "unknown"


def ruleset_hash(ruleset: Ruleset) -> str:
    """16 hex digits of the SHA-256 of the resolved ruleset: every section after ``extends``
    with the option values applied, expressions by their text.  It does not depend on the
    path the ruleset was loaded from; a change of a rule, an option value or even a source
    note changes it."""
    from dsl.options import Option

    def plain(value: Any) -> Any:
        if isinstance(value, Option):
            return value.value
        if isinstance(value, Mapping):
            return dict(value)
        if hasattr(value, "text"):  # a compiled expression
            return {"expression": value.text}
        raise TypeError(f"cannot hash {type(value).__name__} in a ruleset")

    text = json.dumps(ruleset.data, default=plain, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def provenance(
    ruleset: Ruleset, agents: Sequence[str], seed: int, preset: str | None
) -> dict[str, str]:
    """What produced a set of rows, as text (Parquet key-value metadata takes strings):
    ``options`` and ``agents`` (one per seat) are JSON, ``preset`` is empty when none."""
    options = ruleset.option_values
    return {
        "ruleset": ruleset.id,
        "ruleset_hash": ruleset_hash(ruleset),
        "options": json.dumps({k: options[k] for k in sorted(options)}, ensure_ascii=False),
        "preset": preset or "",
        "agents": json.dumps(list(agents), ensure_ascii=False),
        "master_seed": str(seed),
        "mjrules_version": package_version(),
    }


def provenance_columns(about: Mapping[str, str]) -> dict[str, Any]:
    """The provenance as row columns: the same text, the master seed as an integer."""
    return {**about, "master_seed": int(about["master_seed"])}


def hand_names(ruleset: Ruleset) -> dict[str, str]:
    """Hand type and modifier id → the name players use (Chinese, else English, else the id),
    as settlement names them."""
    from interpreter.settle import display_name

    return {
        id_: display_name(spec.get("name"), id_)
        for section in ("hands", "modifiers")
        for id_, spec in (ruleset.get(section) or {}).items()
    }


# --- the figures ------------------------------------------------------------------------------


@dataclass
class _Mean:
    n: int = 0
    total: float = 0.0
    squares: float = 0.0

    def add(self, x: float) -> None:
        self.n += 1
        self.total += x
        self.squares += x * x

    @property
    def mean(self) -> float:
        return self.total / self.n if self.n else math.nan

    @property
    def half_width(self) -> float:
        """Half the width of the normal 95% confidence interval of the mean."""
        if self.n < 2:
            return math.nan
        var = max(0.0, (self.squares - self.total**2 / self.n) / (self.n - 1))
        return 1.96 * math.sqrt(var / self.n)


@dataclass
class _Seat:
    """和了率, 放铳率 and points of one seat, or of whoever deals."""

    won: int = 0
    dealt_in: int = 0
    points: _Mean = field(default_factory=_Mean)


@dataclass(frozen=True)
class HandFigures:
    """One hand's part in each figure: the one definition that :class:`Summary` totals and
    paired comparisons (``interpreter.compare``) difference hand by hand."""

    no_winner: bool
    wins: int
    self_draws: int
    multi_win: bool
    won: tuple[bool, ...]
    """Per seat: it won the hand (和了)."""
    dealt_in: tuple[bool, ...]
    """Per seat: it dealt into a win (放铳, 点炮)."""
    points: tuple[int, ...]
    dealer: int
    edge: float
    """The dealer's points less the mean points of the other seats."""
    first_win_turn: int | None
    """巡目 of the first win; None when nobody won."""
    claims: int
    called: tuple[bool, ...]
    """Per seat: it claimed another's discard for a pung, chow or kong (副露); the share of
    hands with it is Tenhou's 副露率.  False for all in rows written before ``callers``."""
    length: int
    """Discards in the hand."""
    moved: int
    """Points that changed hands: the sum of the gains."""
    hand_types: Counter[str]
    """Hand type id → the number of this hand's wins that have it."""


def hand_figures(r: Mapping[str, Any], players: int) -> HandFigures:
    """The figures of one row of ``simulate``."""
    winners, sources = set(r["winners"]), set(r["win_from"])
    callers = set(r.get("callers", ()))
    deltas = tuple(r[f"delta_{s}"] for s in range(players))
    d = r["dealer"]
    return HandFigures(
        no_winner=not winners,
        wins=r["n_wins"],
        self_draws=r["self_draws"],
        multi_win=bool(r["multi_win"]),
        won=tuple(s in winners for s in range(players)),
        dealt_in=tuple(s in sources for s in range(players)),
        points=deltas,
        dealer=d,
        edge=deltas[d] - (sum(deltas) - deltas[d]) / (players - 1),
        first_win_turn=r["first_win_turn"] if winners else None,
        claims=r["claims"],
        called=tuple(s in callers for s in range(players)),
        length=r["discards"],
        moved=r["points_moved"],
        hand_types=Counter(h for hands in r["win_hands"] for h in hands),
    )


@dataclass
class Summary:
    """The figures ``mjrules simulate`` prints, accumulated from its rows in constant memory.

    ``about`` is the :func:`provenance` of the rows, ``names`` maps hand type ids to names,
    ``changed`` holds the options set away from their defaults (for the heading).
    """

    about: dict[str, str]
    names: Mapping[str, str] = field(default_factory=dict)
    changed: Mapping[str, Any] = field(default_factory=dict)
    hands: int = 0
    no_winner: int = 0
    wins: int = 0
    self_draws: int = 0
    multi_win: int = 0
    seats: list[_Seat] = field(default_factory=list)
    dealer: _Seat = field(default_factory=_Seat)
    edge: _Mean = field(default_factory=_Mean)
    first_win_turn: _Mean = field(default_factory=_Mean)
    claims: _Mean = field(default_factory=_Mean)
    length: _Mean = field(default_factory=_Mean)
    moved: Counter[int] = field(default_factory=Counter)
    hand_types: Counter[str] = field(default_factory=Counter)
    ends: Counter[str] = field(default_factory=Counter)

    @classmethod
    def of(
        cls, ruleset: Ruleset, agents: Sequence[str], seed: int, preset: str | None = None
    ) -> Summary:
        changed = {n: o.value for n, o in ruleset.options.items() if o.value != o.default}
        return cls(provenance(ruleset, agents, seed, preset), hand_names(ruleset), changed)

    def __post_init__(self) -> None:
        if not self.seats:
            self.seats = [_Seat() for _ in self.agents]

    @property
    def agents(self) -> list[str]:
        return list(json.loads(self.about["agents"]))

    def add(self, rows: Iterable[dict[str, Any]]) -> None:
        players = len(self.seats)
        for r in rows:
            h = hand_figures(r, players)
            self.hands += 1
            self.no_winner += h.no_winner
            self.wins += h.wins
            self.self_draws += h.self_draws
            self.multi_win += h.multi_win
            for s, seat in enumerate(self.seats):
                seat.won += h.won[s]
                seat.dealt_in += h.dealt_in[s]
                seat.points.add(h.points[s])
            d = h.dealer
            self.dealer.won += h.won[d]
            self.dealer.dealt_in += h.dealt_in[d]
            self.dealer.points.add(h.points[d])
            self.edge.add(h.edge)
            if h.first_win_turn is not None:
                self.first_win_turn.add(h.first_win_turn)
            self.claims.add(h.claims)
            self.length.add(h.length)
            self.moved[h.moved] += 1
            self.hand_types.update(h.hand_types)
            self.ends[r["end"]] += 1

    def percentile_moved(self, q: float) -> int | None:
        """The ``q`` quantile (nearest rank) of the points moved per hand."""
        if not self.hands:
            return None
        rank, seen = math.ceil(q * self.hands), 0
        for value in sorted(self.moved):
            seen += self.moved[value]
            if seen >= rank:
                return value
        return max(self.moved)

    def to_json(self, top: int = 10) -> dict[str, Any]:
        def share(n: int) -> float | None:
            return n / self.hands if self.hands else None

        def seat_json(seat: _Seat) -> dict[str, Any]:
            return {
                "win_rate": share(seat.won),
                "deal_in_rate": share(seat.dealt_in),
                "mean_points": _num(seat.points.mean),
                "mean_points_ci95": _num(seat.points.half_width),
            }

        about = self.about
        moved_total = sum(v * n for v, n in self.moved.items())
        return {
            "ruleset": about["ruleset"],
            "ruleset_hash": about["ruleset_hash"],
            "options": json.loads(about["options"]),
            "preset": about["preset"] or None,
            "agents": self.agents,
            "master_seed": int(about["master_seed"]),
            "mjrules_version": about["mjrules_version"],
            "hands": self.hands,
            "no_winner_rate": share(self.no_winner),
            "wins": self.wins,
            "wins_per_hand": share(self.wins),
            "self_draw_share": self.self_draws / self.wins if self.wins else None,
            "multi_win_rate": share(self.multi_win),
            "seats": [
                {"seat": s, "agent": a, **seat_json(seat)}
                for s, (a, seat) in enumerate(zip(self.agents, self.seats, strict=True))
            ],
            "dealer": seat_json(self.dealer),
            "dealer_edge": _num(self.edge.mean),
            "dealer_edge_ci95": _num(self.edge.half_width),
            "first_win_turn": _num(self.first_win_turn.mean),
            "claims_per_hand": _num(self.claims.mean),
            "mean_length": _num(self.length.mean),
            "points_moved_mean": moved_total / self.hands if self.hands else None,
            "points_moved_p95": self.percentile_moved(0.95),
            "ends": dict(sorted(self.ends.items())),
            "top_hand_types": [
                {"id": k, "name": self.names.get(k, k), "count": n, "per_win": n / self.wins}
                for k, n in self.hand_types.most_common(top)
            ],
        }

    def to_text(self, top: int = 10) -> str:
        d = self.to_json(top)
        options = ", ".join(f"{k}={option_text(v)}" for k, v in self.changed.items())
        preset = f"preset {d['preset']}, " if d["preset"] else ""
        edge = _pm(d["dealer_edge"], d["dealer_edge_ci95"])
        p95 = "-" if d["points_moved_p95"] is None else d["points_moved_p95"]
        figures = [
            ("流局 (no winner)", f"{_pct(d['no_winner_rate'])} of hands"),
            ("wins per hand", f"{_fmt(d['wins_per_hand'])}   ({d['wins']:,} wins)"),
            ("自摸 (self-drawn)", f"{_pct(d['self_draw_share'])} of wins"),
            ("一炮多响 (multiple win)",
             f"{_pct(d['multi_win_rate'])} of hands (several players win on one tile)"),
            ("first win, turn (巡目)",
             f"{_fmt(d['first_win_turn'], 1)}   (the first winner's discards before it, plus one)"),
            ("claims per hand", _fmt(d["claims_per_hand"])),
            ("hand length", f"{_fmt(d['mean_length'], 1)} discards"),
            ("points moved per hand",
             f"mean {_fmt(d['points_moved_mean'], 1)}, 95th percentile {p95}"),
            ("dealer edge (庄)",
             f"{edge}   (the dealer's points less the other seats' mean, per hand; 95% CI)"),
        ]  # fmt: skip
        lines = [
            f"{d['hands']:,} hands of {d['ruleset']} ({preset}"
            f"{'options ' + options if options else 'default options'}; "
            f"ruleset hash {d['ruleset_hash']}), master seed {d['master_seed']}, "
            f"mjrules {d['mjrules_version']}",
            f"bots: {bots_text(d['agents'])}; the figures describe these bots playing these rules",
            "",
            *(f"{pad(label, 24)} {value}" for label, value in figures),
            "",
            f"{pad('seat', 12)} {pad('bot', 14)} {pad('和了率', 9, right=True)} "
            f"{pad('放铳率', 9, right=True)}   mean points (95% CI)",
        ]
        rows = [(f"{s['seat']}", _short_bot(s["agent"]), s) for s in d["seats"]]
        rows.append(("dealer (庄)", "", d["dealer"]))
        for label, agent, s in rows:
            lines.append(
                f"{pad(label, 12)} {pad(agent, 14)} {_pct(s['win_rate']):>9} "
                f"{_pct(s['deal_in_rate']):>9}   {_pm(s['mean_points'], s['mean_points_ci95'])}"
            )
        if d["top_hand_types"]:
            lines += ["", "hand types (share of wins)"]
            for t in d["top_hand_types"]:
                label = f"{t['name']} ({t['id']})"
                lines.append(f"  {pad(label, 28)} {t['count']:>8,}  {_pct(t['per_win']):>6}")
        return "\n".join(lines)


def _short_bot(agent: str) -> str:
    """A bot's name for the seat table: its parameters, named in the bots line, cut short."""
    return agent if len(agent) <= 14 else agent.partition(":")[0] + ":…"


def bots_text(agents: Sequence[str]) -> str:
    if len(set(agents)) == 1:
        return f"{agents[0]} at every seat"
    return ", ".join(f"seat {s} {a}" for s, a in enumerate(agents))


def option_text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def text_width(text: str) -> int:
    """Terminal columns ``text`` takes (a Chinese character takes two)."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def pad(text: str, width: int, right: bool = False) -> str:
    """Justify ``text`` in ``width`` terminal columns."""
    space = " " * max(0, width - text_width(text))
    return space + text if right else text + space


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{x:.1%}"


def _num(x: float) -> float | None:
    return None if math.isnan(x) else round(x, 4)


def _fmt(x: float | None, digits: int = 2) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def _pm(mean: float | None, half: float | None) -> str:
    """A signed mean and the half-width of its 95% CI."""
    return f"{'-' if mean is None else f'{mean:+.2f}':>8} ± {_fmt(half)}"
