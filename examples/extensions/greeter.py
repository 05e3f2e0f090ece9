"""Greeting tools, written for the typed SDK generation that calls vis.register (G2)."""
import blockether.vis.extension as vis


def greet(name: str) -> str:
    """Greet one person by name."""
    return f"hi {name}"


vis.register(vis.Extension(
    name="greeter",
    description="Greeting tools.",
    alias="greet",
    symbols=[vis.Symbol(greet, tag="observation", activity=vis.Activity("generic", label="Greet someone"))],
))
