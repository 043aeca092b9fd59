"""Building the package compiles the gettext catalogues: each roundhouse/locale/*.po
becomes the .mo the table reads at run time (roundhouse.catalogues does the work, with
Babel, which the build requires).

It also compiles the rules engine with mypyc where it can (docs/engine.md, "Compiled or
pure"): `ROUNDHOUSE_ENGINE=compiled` insists (a failure stops the build), `pure` never
compiles, and unset (`auto`) compiles a wheel or a plain install when mypyc and a C
compiler work, else leaves the engine in pure Python, which behaves the same. An
editable install stays pure unless told `compiled`: an edit to a compiled module would
not be seen. Everything else is in pyproject.toml."""

import os
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))

# The engine's modules left in pure Python: classes made by `object.__new__` (`Tile`,
# `Laid`) or frozen dataclasses checking their own types (`Options`) cannot be native,
# and measured, their modules run faster interpreted than compiled as non-native classes
# (docs/engine.md). `Position`, `Draft` and `State` are native: compiled, `apply` copies
# a draft into a new `State` rather than changing its class. The state's codec, run once
# at a resume, reads a position's fields by name from its class (`__slots__`).
PURE = {"tiles.py", "options.py", "statecodec.py"}

MODE = os.environ.get("ROUNDHOUSE_ENGINE", "auto")
if MODE not in ("auto", "compiled", "pure"):
    sys.exit(f"ROUNDHOUSE_ENGINE is {MODE!r}: use compiled, pure or auto (the default)")


class BuildWithCatalogues(build_py):
    def run(self) -> None:
        from roundhouse.catalogues import compile_all

        compile_all()
        # The package's data files are listed lazily: drop a list made before the .mo
        # files were there.
        self.__dict__.pop("data_files", None)
        super().run()


class BuildEngine(build_ext):
    """Compiles the engine's extensions, or (unless told `compiled`) leaves them out
    when compiling fails or the install is editable: the .py files are installed either
    way, so the engine then runs as pure Python."""

    def finalize_options(self) -> None:
        if MODE == "auto" and self.editable_mode:
            self.distribution.ext_modules = []
        elif self.distribution.ext_modules:
            self.distribution.ext_modules = engine_extensions()
        super().finalize_options()

    def run(self) -> None:
        try:
            super().run()
        except Exception as err:  # no compiler, no Python headers
            self.fall_back(err)
            # Not a mix of compiled and pure modules: drop what was built before the
            # failure, so the build's files hold only the pure engine.
            for ext in self.extensions:
                Path(self.get_ext_fullpath(ext.name)).unlink(missing_ok=True)

    @staticmethod
    def fall_back(err: Exception) -> None:
        if MODE == "compiled":
            raise err
        print(f"roundhouse: the rules engine stays pure Python ({err})", file=sys.stderr)


_compiled: list[Extension] = []


def engine_extensions() -> list[Extension]:
    """The engine's modules for mypyc: read and type-checked here, when the build asks,
    not when setup.py is loaded, so the metadata steps of a build cost nothing."""
    if not _compiled:
        sources = sorted(
            str(p.relative_to(ROOT))
            for p in (ROOT / "firmware_py" / "rules").glob("*.py")
            if p.name not in PURE
        )
        try:
            from mypyc.build import mypycify

            _compiled.extend(mypycify(sources, opt_level="3"))
        except Exception as err:  # mypyc missing, or refusing the code
            BuildEngine.fall_back(err)
    return _compiled


setup(
    cmdclass={"build_py": BuildWithCatalogues, "build_ext": BuildEngine},
    # A stand-in that `BuildEngine` replaces with the engine's modules: it marks the
    # wheel as built for this platform.
    ext_modules=[] if MODE == "pure" else [Extension("firmware_py.rules._engine", [])],
)
