# SPDX-License-Identifier: BSD-3-Clause
"""Builds the _ghostwire extension with the project's CMake (only the library and the module) and
puts it into the ghostwire package. Used by `pip install --no-build-isolation .` (docs/python.md).

Extra CMake arguments come from GHOSTWIRE_CMAKE_ARGS, e.g. the MPI to build with:
  GHOSTWIRE_CMAKE_ARGS="-DMPI_C_COMPILER=mpicc.openmpi -DMPI_CXX_COMPILER=mpicxx.openmpi"
"""
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build = ROOT / "build-pip"  # outside build/, which is the developer's tree
        configure = ["cmake", "-S", str(ROOT), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
                     f"-DPython_EXECUTABLE={sys.executable}", "-DGHOSTWIRE_BUILD_PYTHON=ON",
                     "-DGHOSTWIRE_BUILD_TESTS=OFF", "-DGHOSTWIRE_BUILD_BENCH=OFF", "-DGHOSTWIRE_BUILD_APPS=OFF",
                     "-DGHOSTWIRE_BUILD_EXAMPLES=OFF", "-DGHOSTWIRE_BUILD_FORTRAN=OFF"]
        configure += shlex.split(os.environ.get("GHOSTWIRE_CMAKE_ARGS", ""))
        subprocess.run(configure, check=True)
        jobs = str(os.cpu_count() or 2)
        subprocess.run(["cmake", "--build", str(build), "--target", "_ghostwire", "-j", jobs], check=True)
        built = sorted((build / "bindings" / "python" / "ghostwire").glob("_ghostwire*.so"))
        if not built:
            raise RuntimeError(f"setup.py: CMake built no _ghostwire module in {build}")
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(built[0], target)


setup(
    packages=["ghostwire"],
    package_dir={"": "bindings/python"},
    ext_modules=[CMakeExtension("ghostwire._ghostwire")],
    cmdclass={"build_ext": CMakeBuild},
    zip_safe=False,
)
