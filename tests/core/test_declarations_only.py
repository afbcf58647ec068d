"""No module adds anything to another area's tables as it is imported (livecore/contributions.py): a module's
top level declares, and the only calls it makes at import are to build its own values. What an area adds to
another's is in its ``Area(contributes=...)``, resolved for the areas a runtime registers."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("livecore", "livecore_client", "livecore_server")
#: Calls a module may make at its top level for its own tables: a converter's hooks, a logger's level.
OWN = ("register_structure_hook", "register_unstructure_hook", "setLevel", "remove")


def _top_level_calls(path: Path) -> list[str]:
    """The calls made by statements of the module's top level that are not assignments or definitions."""
    found = []
    for node in ast.parse(path.read_text()).body:
        calls = []
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            calls = [node.value]
        elif isinstance(node, ast.For):
            calls = [n.value for n in node.body if isinstance(n, ast.Expr) and isinstance(n.value, ast.Call)]
        for call in calls:
            name = call.func.attr if isinstance(call.func, ast.Attribute) else getattr(call.func, "id", "")
            if not name.startswith(OWN):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} {ast.unparse(call)[:80]}")
    return found


def test_no_module_registers_anything_as_it_is_imported() -> None:
    calls = [
        call
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        for call in _top_level_calls(path)
    ]
    assert calls == []


def test_the_check_catches_a_registration_at_import() -> None:
    module = ROOT / "livecore" / "_probe_registration.py"
    try:
        module.write_text(
            "from livecore.live_events.commands.attempts import FINISH\nSTEPS = []\nSTEPS.append(FINISH)\n"
        )
        assert _top_level_calls(module) == ["livecore/_probe_registration.py:3 STEPS.append(FINISH)"]
    finally:
        module.unlink()


@pytest.mark.parametrize("name", ["Reason", "GrantKind", "EntryType"])
def test_no_set_of_values_has_a_register_method_left(name: str) -> None:
    import livecore.economy.rules
    import livecore.grants.rules

    owner = livecore.economy.rules if name == "Reason" else livecore.grants.rules
    assert not hasattr(getattr(owner, name), "register")
