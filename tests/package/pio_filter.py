"""tests/package/pio_filter.py: PlatformIO's source selection for a library, as its documentation describes
build.srcFilter: +<glob> and -<glob> applied in order to the files of build.srcDir (glob relative to it, ** spanning
folders, a folder matched meaning every file under it), of which the source files are compiled."""
import glob
import os
import re
from pathlib import Path

SOURCE_EXTS = (".c", ".cpp", ".cc", ".S")


def pio_select(src_dir, src_filter):
    """The source files of src_dir (paths relative to it, sorted) that a srcFilter (a string or a list) keeps."""
    src_dir = Path(src_dir)
    if isinstance(src_filter, list):
        src_filter = " ".join(src_filter)
    chosen = set()
    for sign, pattern in re.findall(r"([+-])<([^>]+)>", src_filter):
        found = set()
        for item in glob.glob(os.path.join(glob.escape(str(src_dir)), pattern), recursive=True):
            paths = [Path(r) / f for r, _, fs in os.walk(item) for f in fs] if os.path.isdir(item) else [Path(item)]
            found |= {p.relative_to(src_dir) for p in paths}
        chosen = chosen | found if sign == "+" else chosen - found
    return sorted(p for p in chosen if p.suffix in SOURCE_EXTS)
