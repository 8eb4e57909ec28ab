#!/usr/bin/python3
"""tests/package/manifests_check.py --source DIR --work DIR [--version-header FILE]: the package manifests, offline.

Runs scripts/package into WORK, then checks
  - each manifest parses (JSON, key=value, YAML) and satisfies its schema in tests/package/schemas/ (the fields its
    tool's documentation lists: those it requires, their types, no unknown key);
  - the version of every manifest that carries one (library.json, library.properties, idf_component.yml) is the one
    of include/sarnn/version.hpp (or of --version-header: the test with a changed copy must fail), and the committed
    idf_component.yml says what scripts/package says (description, url, license);
  - zephyr/module.yml names a CMake folder and a Kconfig file that exist;
  - the listings: the Arduino zip, the PlatformIO folder and what an upload of the ESP-IDF component holds (the
    checkout less idf_component.yml's files.exclude) have no test, benchmark, fuzz or build folder, and the sources
    the Arduino builder and PlatformIO's srcFilter compile are exactly lib/dispatch.cpp, lib/fixed.cpp, the q15
    kernels' lib/kernels/q15/{affine,attention,cells}.cpp and the plain C++ sets' files that cmake/SarnnArch.cmake
    builds on every target or every hard-float one (its TARGETS any, portable, hard_float), whatever their names.
Exit status 77 (ctest: skipped) when python3-jsonschema or python3-yaml is missing.
"""
import argparse
import importlib.machinery
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile

sys.dont_write_bytecode = True  # nothing written into the checkout
from pathlib import Path, PurePosixPath

try:
    import jsonschema
    import yaml
except ImportError as e:
    print(f"SARNN-SKIP: package manifest checks (python3-jsonschema or python3-yaml missing: {e})")
    sys.exit(77)

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from pio_filter import pio_select  # noqa: E402

FORBIDDEN = re.compile(r"^(tests?|bench|benchmarks?|fuzz|build.*|out|\.git|__pycache__)$")
errors = []


def check(ok, what):
    print(("ok    " if ok else "FAIL  ") + what)
    if not ok:
        errors.append(what)


def validate(doc, schema_name, what):
    schema = json.loads((HERE / "schemas" / schema_name).read_text())
    problems = sorted(jsonschema.Draft7Validator(schema).iter_errors(doc), key=lambda e: list(e.path))
    for p in problems:
        print(f"      {what}: {'/'.join(map(str, p.path)) or '(top)'}: {p.message}")
    check(not problems, f"{what} satisfies tests/package/schemas/{schema_name}")


def header_version(path):
    text = Path(path).read_text()
    return ".".join(re.search(rf"^#define SARNN_VERSION_{p} (\d+)$", text, re.M).group(1)
                    for p in ("MAJOR", "MINOR", "PATCH"))


def properties(text):
    """An Arduino .properties file as a dict (key=value lines; # comments)."""
    out = {}
    for line in text.splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            key, sep, value = line.partition("=")
            if not sep:
                raise ValueError(f"not key=value: {line!r}")
            out[key.strip()] = value.strip()
    return out


def expected_sources(src):
    """lib/'s files every package must compile, by name, from cmake/SarnnArch.cmake's list of sets."""
    text = (src / "cmake/SarnnArch.cmake").read_text()
    sets = re.findall(r"^sarnn_kernel_set\(\S+ .*?FILE (\S+) TARGETS ([^A-Z)]*)", text, re.M)
    names = {f"kernels/{f}.cpp" for f, targets in sets if set(targets.split()) & {"any", "portable", "hard_float"}}
    q15 = {f"kernels/q15/{name}.cpp" for name in ("affine", "attention", "cells")}
    return names | q15 | {"dispatch.cpp", "fixed.cpp"}


def forbidden_parts(paths):
    return sorted({str(p) for p in paths if any(FORBIDDEN.match(part) for part in PurePosixPath(p).parts[:-1])})


def glob_regex(pattern):
    """A files.include/exclude glob of the ESP-IDF component manager as a regular expression (** spans folders)."""
    out, i = "", 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out, i = out + "(?:.*/)?", i + 3
        elif pattern.startswith("**", i):
            out, i = out + ".*", i + 2
        elif pattern[i] == "*":
            out, i = out + "[^/]*", i + 1
        elif pattern[i] == "?":
            out, i = out + "[^/]", i + 1
        else:
            out, i = out + re.escape(pattern[i]), i + 1
    return re.compile(out + "$")


def upload_listing(src, excludes):
    """The files of the checkout an upload would take: all but those files.exclude matches (excluded folders pruned)."""
    res = [glob_regex(p) for p in excludes]
    kept = []
    for root, dirs, files in os.walk(src):
        rel_root = Path(root).relative_to(src)
        dirs[:] = [d for d in dirs if d != ".git" and not any(r.match(str(rel_root / d / "x")) for r in res)]
        kept += [str(rel_root / f) for f in files if not any(r.match(str(rel_root / f)) for r in res)]
    return kept


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--source", type=Path, required=True)
    ap.add_argument("--work", type=Path, required=True)
    ap.add_argument("--version-header", type=Path, help="default: include/sarnn/version.hpp of --source")
    args = ap.parse_args()
    src = args.source.resolve()
    work = args.work.resolve()
    shutil.rmtree(work, ignore_errors=True)  # the test's own folder: what an earlier run left
    out = work / "out"
    subprocess.run([sys.executable, str(src / "scripts/package"), "--out", str(out)], check=True)
    want = header_version(args.version_header or src / "include/sarnn/version.hpp")
    print(f"version.hpp says {want}")
    loader = importlib.machinery.SourceFileLoader("sarnn_package", str(src / "scripts/package"))
    package = importlib.util.module_from_spec(importlib.util.spec_from_loader("sarnn_package", loader))
    loader.exec_module(package)

    # ---- PlatformIO ----
    pio_dir = out / "platformio/sarnn"
    lib_json = json.loads((pio_dir / "library.json").read_text())
    validate(lib_json, "library.json.json", "library.json")
    check(lib_json.get("version") == want, f"library.json's version {lib_json.get('version')} is {want}")
    build = lib_json["build"]
    selected = {str(p) for p in pio_select(pio_dir / build["srcDir"], build["srcFilter"])}
    check(selected == expected_sources(src), f"PlatformIO's srcFilter compiles {sorted(selected)}")
    check((pio_dir / build["includeDir"] / "sarnn/config.hpp").is_file(), "library.json's includeDir has sarnn/config.hpp")
    pio_files = [str(p.relative_to(pio_dir)) for p in pio_dir.rglob("*") if p.is_file()]
    check(not forbidden_parts(pio_files), f"the PlatformIO folder has no test/bench/build folder {forbidden_parts(pio_files)}")

    # ---- Arduino ----
    props = properties((out / "arduino/sarnn/library.properties").read_text())
    validate(props, "library.properties.json", "library.properties")
    check(props.get("version") == want, f"library.properties' version {props.get('version')} is {want}")
    with zipfile.ZipFile(out / f"sarnn-arduino-{props['version']}.zip") as z:
        names = [n for n in z.namelist() if not n.endswith("/")]
    check(all(n.startswith("sarnn/") for n in names), "the zip holds one folder, sarnn/")
    inner = [n[len("sarnn/"):] for n in names]
    for must in ("library.properties", "src/sarnn.h", "src/sarnn/sarnn.hpp", "src/sarnn/config.hpp"):
        check(must in inner, f"the zip has {must}")
    sketches = [n for n in inner if re.fullmatch(r"examples/([^/]+)/\1\.ino", n)]
    check(bool(sketches), f"the zip has an example sketch examples/<name>/<name>.ino {sketches}")
    compiled = {n[len("src/"):] for n in inner if n.startswith("src/") and n.endswith((".c", ".cpp", ".cc", ".S"))}
    check(compiled == expected_sources(src), f"the Arduino builder compiles src/{sorted(compiled)}")
    check(not forbidden_parts(inner), f"the zip has no test/bench/build folder {forbidden_parts(inner)}")
    check(all(n.startswith(("examples/", "src/")) or n in ("library.properties", "LICENSE") for n in inner),
          "the zip holds library.properties, LICENSE, src/ and examples/ only")

    # ---- Zephyr ----
    module = yaml.safe_load((src / "zephyr/module.yml").read_text())
    validate(module, "module.yml.json", "zephyr/module.yml")
    if isinstance(module, dict) and isinstance(module.get("build"), dict):
        check((src / str(module["build"].get("cmake")) / "CMakeLists.txt").is_file(),
              "module.yml's build.cmake folder has a CMakeLists.txt")
        check((src / str(module["build"].get("kconfig"))).is_file(), "module.yml's build.kconfig file exists")

    # ---- ESP-IDF ----
    idf = yaml.safe_load((src / "idf_component.yml").read_text())
    validate(idf, "idf_component.yml.json", "idf_component.yml")
    check(str(idf.get("version")) == want, f"idf_component.yml's version {idf.get('version')} is {want}")
    for key, value in (("description", package.DESCRIPTION), ("url", package.URL), ("license", package.LICENSE)):
        check(idf.get(key) == value, f"idf_component.yml's {key} is scripts/package's")
    upload = upload_listing(src, idf.get("files", {}).get("exclude", []))
    check(not forbidden_parts(upload), f"an ESP-IDF upload has no test/bench/build folder {forbidden_parts(upload)[:5]}")
    for must in ("CMakeLists.txt", "idf_component.yml", "cmake/SarnnEspIdf.cmake", "cmake/SarnnPackageSources.cmake",
                 "packaging/include/sarnn/config.hpp", "include/sarnn/sarnn.hpp", "lib/dispatch.cpp"):
        check(must in upload, f"an ESP-IDF upload has {must}")

    if errors:
        sys.exit(f"{len(errors)} check(s) failed")
    print("ok: the manifests parse, carry their tools' fields and version.hpp's version; the listings are clean")


if __name__ == "__main__":
    main()
