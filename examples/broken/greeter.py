"""The greeter with the mistakes Vis would report one at a time: one in each declaration."""
import blockether.vis.extension as vis


def greet(name: str) -> str:
    """Greet one person by name."""
    return f"hi {name}"


def wave(name: str) -> str:
    return f"bye {name}"


TOOLS = [
    vis.Symbol(greet, tag="read", activity=vis.Activity("generic", label="Greet someone")),
    vis.Symbol(wave, activity=vis.Activity(presenter="bogus")),
]

vis.register_extension(vis.Extension(
    name="greeter",
    description="Greets people.",
    symbols=TOOLS,
    op_hooks=[vis.OpHook("patch", greet)],
    env="GREETER_TOKEN",
))
vis.register(vis.Extension(name="again", description="Twice."))
