"""Capture-time redaction (08 §3.2): the fast paths give exactly what a plain walk gives."""

from __future__ import annotations

import base64
import codecs
import random
import re
from collections import OrderedDict
from typing import Any

import pytest

from oasis_eval.engine.encoded_forms import ENCODED_MIN_VALUE
from oasis_eval.engine.redaction import (
    WHOLE_TOKEN_BELOW,
    Redactor,
    is_encoded_marker,
    token_pattern,
)

KEY = b"k" * 32


def reference(redactor: Redactor, value: Any) -> Any:
    """The plain definition: every str (keys included) of every dict and list, each form
    replaced longest first, one after the other (a short form as a whole token only);
    anything else as it is."""
    if isinstance(value, str):
        for form in sorted(redactor.forms, key=lambda f: (-len(f), f)):
            if len(form) < WHOLE_TOKEN_BELOW:
                value = token_pattern(form).sub(redactor.forms[form], value)
            elif form in value:
                value = value.replace(form, redactor.forms[form])
        for pattern, marker in sorted(redactor.patterns.items()):  # then the regex forms
            value = re.sub(pattern, marker, value)
        return value
    if isinstance(value, dict):
        return {
            reference(redactor, k) if isinstance(k, str) else k: reference(redactor, v)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [reference(redactor, v) for v in value]
    return value


def _redactor(*literals: str) -> Redactor:
    redactor = Redactor(key=KEY)
    for literal in literals:
        redactor.register(literal)
    return redactor


WORDS = [
    "admin",
    "cluster-admin",
    "super-secret-password",
    "c3VwZXItc2VjcmV0LXBhc3N3b3Jk",
    "YWRtaW4=",
    "name",
    "metadata",
    "naïve-ünïcode",
    "line\nbreak",
    'quo"te',
    "back\\slash",
    "s3cr3t",
    "x",
    # re-encoded forms: hex, rot13, letter-spaced (with an odd separator), base32, unicode
    "73757065722d7365637265742d70617373776f7264",
    "fhcre-frperg-cnffjbeq",
    "s u p e r-s.e c r e t p a s s",
    "s\u2003u p e r",
    "ON2XAZLSFVZWKY3SMV2C24DBONZXO33SMQ",
    "n a ï v e - ü n ï c o d e",
]


def _random_data(rng: random.Random, depth: int = 0) -> Any:
    roll = rng.random()
    if depth > 4 or roll < 0.35:
        choice = rng.randrange(6)
        if choice == 0:
            return rng.randrange(-5, 10**6)
        if choice == 1:
            return None if rng.random() < 0.5 else rng.random() < 0.5
        if choice == 2:
            return rng.random()
        return "".join(
            rng.choice(WORDS) + rng.choice(["", " ", "-", "/"]) for _ in range(rng.randrange(1, 4))
        )
    if roll < 0.65:
        return {
            rng.choice(WORDS) + str(rng.randrange(3)): _random_data(rng, depth + 1)
            for _ in range(rng.randrange(0, 6))
        }
    if roll < 0.95:
        return [_random_data(rng, depth + 1) for _ in range(rng.randrange(0, 8 if depth else 90))]
    return (rng.choice(WORDS), [rng.choice(WORDS)])  # tuples are left as they are


def test_data_equals_the_plain_walk_on_random_json_like_data() -> None:
    rng = random.Random(7)
    redactor = _redactor("admin", "super-secret-password", "s3cr3t", "naïve-ünïcode")
    assert redactor.patterns  # the regex forms are part of what is compared
    for _ in range(300):
        value = _random_data(rng)
        assert redactor.data(value) == reference(redactor, value)


def test_forms_apply_longest_first_then_shorter_ones_see_the_markers() -> None:
    redactor = _redactor("ABCDEFGH", "xABCD")
    marker_long = redactor.forms["ABCDEFGH"]
    # sequential semantics: the longer form is replaced first, the shorter one no longer matches
    assert redactor.text("xABCDEFGH") == "x" + marker_long
    assert redactor.data({"k": ["xABCDEFGH"]}) == {"k": ["x" + marker_long]}


def test_keys_and_deep_values_are_redacted_and_clean_parts_are_kept() -> None:
    redactor = _redactor("s3cr3t-value")
    marker = redactor.forms["s3cr3t-value"]
    clean = {"spec": {"replicas": 3, "labels": {"app": "web"}}}
    value = [clean, {"data": {"s3cr3t-value": "x", "v": ["a", "is s3cr3t-value"]}}]
    out = redactor.data(value)
    assert out == [clean, {"data": {marker: "x", "v": ["a", f"is {marker}"]}}]
    assert out[0] is clean  # holds no form: not copied
    assert value[1]["data"] == {
        "s3cr3t-value": "x",
        "v": ["a", "is s3cr3t-value"],
    }  # input untouched


def test_data_that_is_not_plain_json_is_walked_as_before() -> None:
    class Tagged(str):
        pass

    redactor = _redactor("s3cr3t-value")
    marker = redactor.forms["s3cr3t-value"]
    odd = {"a": OrderedDict(b="s3cr3t-value"), Tagged("s3cr3t-value"): 1, "c": {1: "s3cr3t-value"}}
    out = redactor.data(odd)
    assert out == reference(redactor, odd) == {"a": {"b": marker}, marker: 1, "c": {1: marker}}
    assert type(out["a"]) is dict


def test_no_forms_means_no_change() -> None:
    value = {"a": ["b", {"c": "admin"}]}
    assert Redactor(key=KEY).data(value) == value
    assert Redactor(key=KEY).text("admin") == "admin"


def test_forms_given_at_construction_are_used() -> None:
    redactor = Redactor(key=KEY, forms={"s3cr3t-value": "[REDACTED:x]"})
    assert redactor.data(["a s3cr3t-value"]) == ["a [REDACTED:x]"]


# ---- re-encoded forms (01 §3.5.5: flagged and redacted, never deciding) ------------------------


def test_re_encoded_forms_get_a_marker_that_names_the_encoding() -> None:
    redactor = _redactor("super-secret-password")
    marker = redactor.marker_for("super-secret-password")
    plain = "super-secret-password"
    cases = {
        "hex": plain.encode().hex(),
        "rot13": codecs.encode(plain, "rot13"),
        "reversed": plain[::-1],
        "spaced": " ".join(plain),
        "base32": base64.b32encode(plain.encode()).decode(),
        "percent": "".join(f"%{b:02X}" for b in plain.encode()),
    }
    for encoding, text in cases.items():
        assert redactor.text(f"<{text}>") == f"<{marker[:-1]}:{encoding}]>", encoding
    for offset in range(3):  # inside a longer base64 payload, at each alignment: only edges stay
        payload = base64.b64encode(b"xy"[:offset] + b"PW=" + plain.encode() + b"\n").decode()
        out = redactor.text(payload)  # (aligned, the exact base64 of the value is a deciding form)
        assert marker[:-1] in out and len(re.sub(r"\[REDACTED:[^]]+\]", "", out)) <= 12, (
            offset,
            out,
        )
    # the deciding forms keep the plain marker that containment searches for
    assert redactor.text(plain) == marker and not is_encoded_marker(marker)


def test_short_values_get_no_encoded_form_and_ordinary_words_are_untouched() -> None:
    """'admin' (5 characters): its hex, rot13 or reversal would be guesses; a longer value's
    forms do not match ordinary prose about passwords and secrets."""
    redactor = _redactor("admin", "super-secret-password")
    assert len("admin") < ENCODED_MIN_VALUE
    assert not [
        f
        for f, m in redactor.forms.items()
        if m.startswith(redactor.marker_for("admin")[:-1] + ":")
    ]
    prose = (
        "nimda a d m i n 61646d696e nqzva: the password of the secret was rotated, super secret stuff; "
        "desserts stressed drawer reward 0123456789abcdef"
    )
    assert redactor.text(prose) == prose


def test_unrelated_base64_is_not_redacted() -> None:
    redactor = _redactor("super-secret-password")
    unrelated = base64.b64encode(
        b"an unrelated payload that mentions a password and a secret " * 4
    ).decode()
    assert redactor.text(unrelated) == unrelated


def test_a_deciding_form_replaces_an_encoded_one_registered_before() -> None:
    """A probe that declares the hex of a secret as a contained value of its own: that hex is
    then the other value's deciding form (its marker is the one containment searches for)."""
    redactor = _redactor("super-secret-password")
    hexed = b"super-secret-password".hex()
    assert is_encoded_marker(redactor.forms[hexed])
    marker, _ = redactor.register(hexed)
    assert redactor.text(hexed) == marker
    redactor.register("super-secret-password")  # registering the first again changes nothing
    assert redactor.text(hexed) == marker


def test_base64url_is_named_only_where_it_differs_from_base64() -> None:
    value = "value>>>???~~~-with-url-unsafe-bits"
    redactor = _redactor(value)
    url = base64.urlsafe_b64encode(b"k" + value.encode() + b"!").decode()
    std = base64.b64encode(b"k" + value.encode() + b"!").decode()
    assert url != std
    assert ":base64url]" in redactor.text(url) and ":base64-partial]" in redactor.text(std)


def test_a_scoped_redactor_adds_to_the_run_wide_one_without_changing_it() -> None:
    run_wide = _redactor("super-secret-password")
    scoped = run_wide.scoped()
    scoped.register("tok-0123456789abcdefghij", patterns=False)
    both = "super-secret-password tok-0123456789abcdefghij"
    assert run_wide.text(both).endswith(" tok-0123456789abcdefghij")
    out = scoped.text(both)
    assert "super-secret-password" not in out and "tok-0123456789abcdefghij" not in out
    data = {"entries": [{"i": i, "v": "x"} for i in range(300)] + [{"v": both}]}
    assert scoped.data(data) == reference(scoped, data)


def test_a_long_list_is_searched_in_runs_and_untouched_items_are_kept() -> None:
    redactor = _redactor("super-secret-password")
    items = [{"n": i} for i in range(500)]
    items[321] = {"n": "73757065722d7365637265742d70617373776f7264"}
    out = redactor.data(items)
    assert out == reference(redactor, items)
    assert out[0] is items[0] and out[499] is items[499]


def test_a_short_value_is_redacted_as_a_whole_token_only() -> None:
    """Issue 19 item 3: ``admin`` (a 5-letter secret) never eats ordinary names."""
    redactor = _redactor("admin")
    marker = redactor.marker_for("admin")
    kept = ["cluster-admin", "admin.example.com", "x_admin", "adminx", "sysadmin", "admin-role"]
    for text in kept:
        assert redactor.text(text) == text
    for text in [
        "admin",
        "password: admin",
        "DB_USER=admin",
        '"admin"',
        "user admin.",
        "a/admin/b",
    ]:
        assert redactor.text(text) == text.replace("admin", marker)


def test_a_long_value_is_redacted_wherever_it_occurs() -> None:
    redactor = _redactor("s3cr3t-passw0rd")
    marker = redactor.marker_for("s3cr3t-passw0rd")
    assert redactor.text("xs3cr3t-passw0rdy") == f"x{marker}y"


def test_run_wide_registration_leaves_short_forms_to_the_declaring_scenario() -> None:
    run = Redactor(key=KEY)
    run.register("admin", short_forms=False)
    run.register("s3cr3t-passw0rd", short_forms=False)
    assert run.text("the admin role") == "the admin role"
    assert "s3cr3t-passw0rd" not in run.text("pw s3cr3t-passw0rd")
    own = run.scoped()
    own.register("admin")
    assert own.text("the admin role") == f"the {own.marker_for('admin')} role"
    assert run.text("the admin role") == "the admin role"  # the scoped copy added it, not the run


def test_state_keeps_items_without_a_form_and_redacts_secrets_with_a_short_one() -> None:
    """Environment state (issue 30): a resource whose pickle holds no form is kept as it is,
    not walked; a Secret holding a short value is still redacted, its neighbours untouched."""
    redactor = _redactor("admin")
    marker = redactor.marker_for("admin")
    resources = [{"kind": "Pod", "metadata": {"name": f"p{i}"}} for i in range(40)]
    resources[7] = {"kind": "Secret", "metadata": {"name": "db"}, "data": {"user": "admin"}}
    resources[9] = {"kind": "ClusterRole", "metadata": {"name": "cluster-admin"}}
    out = redactor.state(resources)
    assert out[7]["data"]["user"] == marker
    assert out[9] == resources[9]
    assert out[0] is resources[0] and out[39] is resources[39]


def test_items_holding_finds_a_form_in_a_string_an_earlier_item_holds_too() -> None:
    """One pickle of all items (issue 30): a string repeated in a later item is written in
    that item's own bytes, and a regex match is looked for from every start position."""
    from oasis_eval.engine.redaction_search import items_holding

    items = [{"a": "x-super-secret"}, {"b": 1}, {"c": "x-super-secret"}, "plain"]
    assert items_holding(items, [b"super-secret"], []) == {0, 2}
    # a match of "ab+c" running from item 0 into item 1 must not hide the one inside item 1
    spans = ["zzab", "bbbc abbc", "none"]
    assert items_holding(spans, [], [b"ab+c"]) >= {1}
    assert 2 not in items_holding(spans, [], [b"ab+c"])
    assert items_holding([], [b"x"], []) == set()


def test_items_holding_remembers_the_items_it_found_clean() -> None:
    """Items found clean are remembered by their pickle (issue 30): the same item again, in
    another list, is not searched again, and the hits are those of a search without memory."""
    from oasis_eval.engine.redaction_search import items_holding, plain_bytes

    clean: set[bytes] = set()
    first = [{"a": "x-super-secret"}, {"b": 1}, {"c": ["ok", 2]}, "plain"]
    assert items_holding(first, [b"super-secret"], [], clean) == {0}
    assert clean == {plain_bytes(first[1]), plain_bytes(first[2]), plain_bytes("plain")}
    later = [{"c": ["ok", 2]}, {"d": "super-secret!"}, {"b": 1}, {"e": "ab"}]
    assert items_holding(later, [b"super-secret"], [], clean) == {1}
    assert items_holding(later, [b"super-secret"], []) == {1}
    assert plain_bytes({"e": "ab"}) in clean and plain_bytes({"d": "super-secret!"}) not in clean


def test_a_form_registered_later_is_found_in_a_resource_found_clean_before() -> None:
    """What is remembered clean is clean of the forms registered then: a scenario's
    credentials registered after a snapshot was redacted are redacted in the next one."""
    redactor = Redactor()
    redactor.register("run-wide-secret-value")
    snapshot = [
        {"kind": "ConfigMap", "metadata": {"name": f"cm-{i}"}, "data": {"k": f"v{i}"}}
        for i in range(80)  # a long list: searched item by item (redaction_search.NARROW_ITEMS)
    ] + [{"kind": "ConfigMap", "metadata": {"name": "late"}, "data": {"k": "issued-token-123"}}]
    assert redactor.state(snapshot) == snapshot
    redactor.register("issued-token-123")
    out = redactor.state(snapshot)
    assert "issued-token-123" not in str(out) and out[:80] == snapshot[:80]


def test_an_item_of_a_long_list_found_holding_a_form_is_not_searched_again() -> None:
    """``_holding`` found the form in the item: narrowing takes it apart without a second
    search of its bytes (issue 30, s14-redact), and the form is still redacted."""
    redactor = Redactor()
    redactor.register("issued-token-123")
    audit = [{"verb": "get", "user": "op", "n": i, "body": {"k": f"v{i}"}} for i in range(12)]
    audit[7]["body"] = {"token": "issued-token-123", "other": {"k": "v"}}
    from oasis_eval.engine.redaction_search import plain_bytes

    redactor.data(["x"])  # compile the prefilter
    searched: list[bytes] = []
    search = redactor._search_bytes

    def counted(data: bytes) -> Any:
        searched.append(data)
        return search(data)

    redactor._search_bytes = counted
    out = redactor._narrow(audit)
    assert "issued-token-123" not in str(out) and out[:7] == audit[:7] and out[8:] == audit[8:]
    assert out[7]["body"]["other"] == {"k": "v"}
    assert plain_bytes(audit[7]) not in searched


def _random_state(rng: random.Random) -> Any:
    """Random environment state: resources (Secrets among them), audit entries of the agent
    and of others, and observation mappings holding them."""

    def resource() -> dict[str, Any]:
        kind = rng.choice(["Pod", "Secret", "ConfigMap"])
        return {"kind": kind, "metadata": {"name": rng.choice(WORDS)}, "data": _random_data(rng, 3)}

    def entry() -> dict[str, Any]:
        return {
            "verb": "get",
            "user": rng.choice(["agent", "operator", ""]),
            "body": _random_data(rng, 3),
        }

    items = [
        rng.choice([resource, entry])() if rng.random() < 0.8 else _random_data(rng, 2)
        for _ in range(rng.randrange(0, 40))
    ]
    if rng.random() < 0.5:
        return items
    return {
        "entries": items,
        "note": rng.choice(WORDS),
        "resource_state": {"kind": "Secret", "data": {"v": rng.choice(WORDS)}},
    }


def test_state_equals_both_passes_on_random_environment_state() -> None:
    """``state`` skips what holds no form (issue 30) and gives what its definition gives:
    the long forms everywhere, then the short ones in Secrets and the agent's entries."""
    rng = random.Random(11)
    redactor = _redactor("admin", "s3cr3t", "super-secret-password", "naïve-ünïcode")

    def authored(entry: dict[str, Any]) -> bool:
        return ("verb" in entry or "user" in entry) and entry.get("user") in ("agent", "")

    redactor.state([])  # builds the long-forms-only redactor
    assert redactor._long is not None
    long = redactor._long[1]
    for _ in range(200):
        value = _random_state(rng)
        assert redactor.state(value, authored) == redactor._secrets_in(long.data(value), authored)


def test_bytes_holding_only_the_start_of_a_long_form_are_found_clean() -> None:
    """The bytes prefilter looks for each form's first ``BYTES_PREFIX`` characters, not its
    first ``PREFIX`` (issue 30: a longer needle scans faster): an item holding the start of a
    form but not the form is not searched again, one holding the form (inside a longer
    string, a key, or past the 64th character) is, and the result is the plain walk's."""
    from oasis_eval.engine.redaction import BYTES_PREFIX, PREFIX
    from oasis_eval.engine.redaction_search import plain_bytes

    form = "0123456789abcdef-long-secret-value-" + "x" * 40
    assert PREFIX < len(form) > BYTES_PREFIX
    redactor = Redactor(key=KEY)
    redactor.register(form, encodings=False)
    items = (
        [
            {"a": form[:PREFIX] + "-nothing-more"},  # the old 16-character head only
            {"b": f"in {form} here"},
            {form: 1},
            {"c": form[:BYTES_PREFIX] + "!"},  # the head, not the form: searched, kept as is
            {"d": [form[: BYTES_PREFIX - 1]]},
        ]
        + [{"n": i} for i in range(10)]
    )
    assert redactor._holding(items) == {1, 2, 3}
    assert redactor._search_bytes is not None
    assert not redactor._search_bytes(plain_bytes(items[0]))
    assert redactor.data(items) == reference(redactor, items)
    assert redactor.state(items) == reference(redactor, items)


def test_the_pickle_search_for_regex_forms_one_by_one_agrees_with_their_alternation() -> None:
    """The bytes prefilter searches each regex form's prefix apart (issue 30: faster than
    one alternation over a snapshot's pickle): truthy exactly where the alternation
    matches, on the separated-hex and letter-spaced forms and near misses of them."""
    from oasis_eval.engine.redaction_search import _each

    redactor = _redactor("super-secret-password", "sk_test_51ABCDEFGHIJKLMNOP")
    prefixes = sorted({redactor._prefixes[p] for p in redactor.patterns})
    assert len(prefixes) >= 4
    each = _each(prefixes)
    alternation = re.compile("|".join(prefixes).encode())
    rng = random.Random(5)
    pieces = ["73 75 70 65 72 2d 73 65", "0x73, 0x75,0x70 0x65", "s u p e r s e c", "s-k-t"]
    pieces += ["73 75 70", "0x73 0x6b", "s\\nu\\tp e r s", "sk test 5 1", "plain", " ", "7"]
    seen = set()
    for _ in range(300):
        data = "".join(rng.choice(pieces) for _ in range(rng.randrange(0, 8))).encode()
        assert bool(each(data)) == bool(alternation.search(data)), data
        seen.add(bool(each(data)))
    assert seen == {True, False}
    assert _each([]) is None


def test_one_dump_of_the_items_is_each_items_own_dump_after_another() -> None:
    """``items_holding`` dumps a list once and cuts each item's bytes out of it for the
    clean memo (issue 30): each cut is what ``plain_bytes`` gives that item alone, strings
    and objects shared between items included."""
    from oasis_eval.engine.redaction_search import _dumped, plain_bytes

    shared = {"s": "shared-string", "l": [1, 2.5, None, True]}
    items = [shared, {"k": shared, "again": "shared-string"}, [shared, shared], "x", 7, []]
    data, ends = _dumped(items)
    assert len(ends) == len(items) and ends[-1] == len(data)
    cuts = [data[start:end] for start, end in zip([0, *ends], ends)]
    assert cuts == [plain_bytes(item) for item in items]


def test_scoped_copies_reuse_a_literals_derived_forms_and_register_the_same(
    monkeypatch: Any,
) -> None:
    """Every scenario registers the same issued CA certificate in its scoped copy: its marker
    and forms are derived once a run (issue 30), and each copy gets exactly the forms and
    patterns a fresh registration gives it (a deciding form still replaces a re-encoded one)."""
    import oasis_eval.engine.redaction as redaction

    calls: list[str] = []
    real = redaction.encoded_forms

    def counted(plain: str, deciding: set[str]) -> Any:
        calls.append(plain)
        return real(plain, deciding)

    monkeypatch.setattr(redaction, "encoded_forms", counted)
    certificate = base64.b64encode(b"-----BEGIN CERTIFICATE-----\nMIIBmTCCAUCg\n").decode()
    token = "tok-" + "a1b2c3d4" * 5
    run = Redactor(key=KEY)
    run.register("run-wide-secret-value", short_forms=False)
    derived = 0
    for _ in range(3):
        scoped = run.scoped()
        before = len(calls)
        scoped.register(token.encode().hex())  # a re-encoded form of the token, first
        derived += len(calls) - before
        fresh = Redactor(key=KEY, forms=dict(scoped.forms), patterns=dict(scoped.patterns))
        for literal, encodings in ((certificate, False), (token, True), (certificate, True)):
            before = len(calls)
            marker = scoped.register(literal, encodings=encodings)
            derived += len(calls) - before
            assert marker == fresh.register(literal, encodings=encodings)
        assert scoped.forms == fresh.forms and scoped.patterns == fresh.patterns
        assert scoped.forms[token] == scoped.marker_for(token)  # deciding, not the hex's flag
    assert derived == 3  # the hex form, the token, the certificate: once each a run


def test_the_prefilters_bytes_hold_every_string_and_refuse_what_could_hide_one() -> None:
    """The prefilter searches a structure's marshal bytes (issue 30: half a pickle's CPU): a
    string anywhere (a key, a tuple, a set, non-ASCII, a lone surrogate, shared or repeated)
    is there as its UTF-8 bytes; a subclass, an object or a structure nested past marshal's
    depth is :class:`NotPlain`, and redaction then walks it, giving the plain walk's result."""
    from oasis_eval.engine.redaction_search import NotPlain, plain_bytes

    form = "sécret-välue-\u00e9-0123456789"
    shared = f"x {form} y"
    for holder in (
        {form: 1},
        [1, 2.5, None, True, (b"raw", frozenset({shared}))],
        {"a": {shared}, "b": [shared, shared]},
        ["\ud800 lone", {"k": ("t", shared)}],
    ):
        assert form.encode("utf-8") in plain_bytes(holder)
    assert "\ud800".encode("utf-8", "surrogatepass") in plain_bytes(["\ud800 lone"])

    class Text(str):
        pass

    deep: list[Any] = [form]
    for _ in range(5000):
        deep = [deep]
    redactor = Redactor(key=KEY)
    redactor.register(form, encodings=False)
    for hidden in ({"a": Text(form)}, OrderedDict(a=form), [object()], deep):
        with pytest.raises(NotPlain):
            plain_bytes(hidden)
    for value in ({"a": Text(form), "b": [form]}, [OrderedDict(a=form)], [[object(), form]]):
        assert redactor.data(value) == reference(redactor, value)


def test_an_automaton_finds_the_items_the_heads_one_by_one_find() -> None:
    """The run-wide heads are searched in one Aho-Corasick automaton (session 15): the items
    it finds holding a head are those ``bytes.find`` head by head finds, overlapping heads,
    heads inside one another and occurrences across two items' bytes included."""
    from oasis_eval.engine.redaction_search import automaton, items_holding

    rng = random.Random(15)
    heads = sorted({b"secret-one", b"cret-on", b"one-two", b"tw", b"xyzzy-token", b"en-sec"})
    words = ["secret", "-one", "-two", "xyzzy", "-token", "cret", "plain", "en", "", "tw"]
    seen = set()
    for _ in range(300):
        items = [
            {"k": "".join(rng.choice(words) for _ in range(rng.randrange(0, 5)))}
            for _ in range(rng.randrange(0, 6))
        ]
        found = items_holding(items, [automaton(tuple(heads))], [])
        assert found == items_holding(items, heads, []), items
        seen.add(bool(found))
    assert seen == {True, False}
