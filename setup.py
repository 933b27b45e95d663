"""The wheel carries the data the card names (prompts/, catalog/, fixtures/mcp/, scenarios/) as
package data under orvena_bench/bundled/, copied from the checkout's top-level folders, which stay
where the design card puts them. orvena_bench/formats/paths.py looks there when the code does not
run from a checkout. Everything else is in pyproject.toml."""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

BUNDLED = {"prompts": "*.jinja", "catalog": "*.json", "fixtures/mcp": "*.json",
           "scenarios": "*.jsonl"}


class BuildWithData(build_py):
    def run(self) -> None:
        super().run()
        if self.editable_mode:  # an editable install reads the checkout's folders directly
            return
        for folder, pattern in BUNDLED.items():
            for source in sorted(Path(folder).glob(pattern)):
                target = Path(self.build_lib) / "orvena_bench" / "bundled" / source
                self.mkpath(str(target.parent))
                self.copy_file(str(source), str(target))


setup(cmdclass={"build_py": BuildWithData})
