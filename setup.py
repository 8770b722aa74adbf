"""Build of the optional compiled parts (the project metadata is in ``pyproject.toml``).

``monolith_envs.arena._fastobs``, ``monolith_envs.strategy._fastobs`` and ``monolith_envs.the_monolith._fastobs``
build the Monolith Arena, Monolith Strategy and The Monolith observations in C; ``monolith_envs.strategy._fastmask``
builds Monolith Strategy's TURN legal-action lists; ``monolith_envs.core._fastchance`` draws the chance recorder's
scalar ``integers`` (die rolls) straight from the generator's bit generator. They are optional: when no C
compiler is available the install goes on and the envs use the equivalent pure-Python code.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "monolith_envs.core._fastchance",
            sources=["monolith_envs/core/_fastchance.c"],
            optional=True,
        ),
        Extension(
            "monolith_envs.arena._fastobs",
            sources=["monolith_envs/arena/_fastobs.c"],
            depends=["monolith_envs/arena/_fastobs_read.h", "monolith_envs/arena/_fastobs_context.h"],
            optional=True,
        ),
        Extension(
            "monolith_envs.strategy._fastobs",
            sources=["monolith_envs/strategy/_fastobs.c"],
            depends=["monolith_envs/strategy/_fastobs_values.h", "monolith_envs/strategy/_fastseq.h"],
            optional=True,
        ),
        Extension(
            "monolith_envs.strategy._fastmask",
            sources=["monolith_envs/strategy/_fastmask.c"],
            depends=["monolith_envs/strategy/_fastseq.h"],
            optional=True,
        ),
        Extension(
            "monolith_envs.the_monolith._fastobs",
            sources=["monolith_envs/the_monolith/_fastobs.c"],
            depends=["monolith_envs/the_monolith/_fastobs_lists.h"],
            optional=True,
        ),
    ]
)
