"""The greeter with the mistakes Vis would report one at a time."""
import blockether.vis.extension as vis


def greet(name: str) -> str:
    """Greet one person by name."""
    return f"hi {name}"


vis.register_extension(vis.Extension(
    name="greeter",
    description="",
    symbols=[greet],
    env="GREETER_TOKEN",
    symbol=[],
))
vis.register(vis.Extension(name="again", description="Twice."))
