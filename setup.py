"""Building the package compiles the gettext catalogues: each roundhouse/locale/*.po
becomes the .mo the table reads at run time (roundhouse.catalogues does the work, with
Babel, which the build requires). Everything else is in pyproject.toml."""

import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

sys.path.insert(0, str(Path(__file__).resolve().parent))


class BuildWithCatalogues(build_py):
    def run(self) -> None:
        from roundhouse.catalogues import compile_all

        compile_all()
        # The package's data files are listed lazily: drop a list made before the .mo
        # files were there.
        self.__dict__.pop("data_files", None)
        super().run()


setup(cmdclass={"build_py": BuildWithCatalogues})
