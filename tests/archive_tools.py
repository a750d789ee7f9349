"""Test helpers that take saved-module archives apart and put them back together, to make
the damaged, edited and forged archives the loader must reject (or, for an edited CPU, load
by compiling the IR again)."""

import hashlib
import json
import zipfile


def read_members(path) -> dict:
    with zipfile.ZipFile(path) as zf:
        return {name: zf.read(name) for name in zf.namelist()}


def write_members(path, members, compression=zipfile.ZIP_DEFLATED) -> None:
    """`members`: a dict, or a list of (name, bytes) pairs (names are written as given,
    duplicates and '..' included)."""
    items = members.items() if isinstance(members, dict) else members
    with zipfile.ZipFile(path, "w", compression) as zf:
        for name, data in items:
            zf.writestr(zipfile.ZipInfo(name), data, compress_type=compression)


def set_member(manifest: dict, members: dict, path: str, data: bytes) -> None:
    """Replace member `path`, keeping the manifest's size and SHA-256 of it right."""
    members[path] = data
    refs = [m for f in manifest["functions"] for s in f["specializations"]
            for m in s["members"].values()]
    for k in manifest.get("kernels", ()):
        for s in k["specializations"]:
            refs += [s["gpu"]["ir"], s["cpu"]["ir"], s["cpu"]["object"]]
            refs += [p["member"] for p in s["ptx"]]
    for m in refs:
        if m["path"] == path:
            m["size"] = len(data)
            m["sha256"] = hashlib.sha256(data).hexdigest()


def rewrite(src, dst, edit=None, rehash=True, compression=zipfile.ZIP_DEFLATED,
            sign=True) -> None:
    """Copy the archive `src` to `dst`, calling `edit(manifest, members)` on the decoded
    manifest and the members first; the manifest's hash is recomputed unless `rehash` is
    false (so only the edit is wrong, not the hash). With `sign`, the manifest is signed
    again under this user's key, as `script.save` would (what the loader checks behind a
    trusted signature); without, the old signature stays (what a forger can do)."""
    members = read_members(src)
    manifest = json.loads(members["manifest.json"])
    if edit is not None:
        edit(manifest, members)
    data = json.dumps(manifest).encode()
    members["manifest.json"] = data
    if rehash:
        members["manifest.sha256"] = hashlib.sha256(data).hexdigest().encode()
    if sign:
        from script.saved_trust import sign as sign_manifest
        members["manifest.sig"] = sign_manifest(data)
    write_members(dst, members, compression)


def other_cpu(manifest: dict, members: dict) -> None:
    manifest["target"]["cpu"] = "some-other-cpu"
