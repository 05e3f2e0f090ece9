"""A durable counter, written for Vis 0.1.41 (G1: import vis, vis.extension)."""
import os
import vis


def bump(n: int = 1) -> int:
    """Add n to the counter and return the new value."""
    value = vis.state.get("count", int(os.environ.get("COUNTER_START", "0"))) + n
    vis.state["count"] = value
    return value


def show(ctx):
    return vis.ok(f"count={vis.state.get('count', 0)}")


vis.extension(
    name="counter",
    description="A durable counter.",
    alias="counter",
    symbols=[vis.symbol(bump, tag="mutation")],
    slash_commands=[vis.slash("count", show, doc="Show the count.")],
    env=["COUNTER_START"],
)
