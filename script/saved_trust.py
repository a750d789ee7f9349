"""Who made a saved module: signing archives, and deciding whether `script.load` may run
their object code (docs/saved-modules.md, "Trust").

A saved module's object code is native code: linking it runs whatever it says. Its hashes
(SHA-256 of the manifest and of every member) find damage, but anyone can recompute them.
So `script.save` signs the manifest's bytes — which hold the SHA-256 of every member, so the
signature covers them all — with HMAC-SHA256 under a secret key: the user's own
(script.store `user_key`, made on first use, mode 0600) unless the caller passes a team's. The
signature is the member ``manifest.sig``: one line, ``script-signature 1 hmac-sha256
<key id> <64 hex digits>``, the key id the first 16 hex digits of the SHA-256 of
``b"script key id\\0" + key`` (it names the key in messages; it does not reveal it).

`load` links an archive's object code only when its signature verifies under a key the caller
trusts: the user's own, and those passed as `trusted_keys`. An archive without a signature,
signed under another key, or whose signature does not verify loads from its IR instead —
verified, made memory-safe (loadpath `secure_foreign_ir`) and compiled for this CPU — and
its module's ``__recompiled__`` says why. ``object_code=True`` links the object code of an
archive whatever its signature (the caller vouches for it, as for a native library it
chooses to load); ``object_code=False`` never does.

A key is 32 bytes; `trusted_keys` and ``save(key=...)`` take bytes, or the path of a key file
(as script.store writes them: ``script-key 1``, then the key in hex), which lets a team share one
file and each member trust it.
"""

from __future__ import annotations

import hmac
import os

from script.errors import LoadError
from script.store import KEY_BYTES, KEY_FORMAT, sha256, user_key

SIGNATURE = "manifest.sig"
_HEAD = "script-signature 1 hmac-sha256"
MAX_SIGNATURE_BYTES = 256


def key_id(key: bytes) -> str:
    """The name of `key` in signatures and messages (16 hex digits)."""
    return sha256(b"script key id\0" + key)[:16]


def as_key(key) -> bytes:
    """`key` (bytes, or the path of a key file) as the 32 bytes of a key; ValueError when it
    is neither."""
    if isinstance(key, (bytes, bytearray)):
        if len(key) != KEY_BYTES:
            raise ValueError(f"a signing key is {KEY_BYTES} bytes, not {len(key)}")
        return bytes(key)
    if isinstance(key, (str, os.PathLike)):
        with open(key, "rb") as f:
            data = f.read(256)
        hex_key = data[len(KEY_FORMAT):].strip()
        if not data.startswith(KEY_FORMAT) or len(hex_key) != 2 * KEY_BYTES:
            raise ValueError(f"{os.fspath(key)} is not a script key file")
        return bytes.fromhex(hex_key.decode("ascii"))
    raise TypeError(f"a key is {KEY_BYTES} bytes or the path of a key file, not "
                    f"{type(key).__name__}")


def sign(manifest: bytes, key=None) -> bytes:
    """The ``manifest.sig`` member for the manifest's bytes, signed under `key` (the user's
    own by default)."""
    key = user_key() if key is None else as_key(key)
    mac = hmac.new(key, manifest, "sha256").hexdigest()
    return f"{_HEAD} {key_id(key)} {mac}\n".encode("ascii")


def untrusted(manifest: bytes, signature: bytes | None, trusted_keys=()) -> str | None:
    """None when `signature` (the ``manifest.sig`` member, or None when absent) signs the
    manifest's bytes under the user's key or one of `trusted_keys`, else why not."""
    if signature is None:
        return "it is not signed"
    parts = signature.decode("ascii", "replace").split()
    if len(parts) != 5 or " ".join(parts[:3]) != _HEAD or len(parts[4]) != 64:
        return f"its {SIGNATURE} is malformed"
    keys = [user_key()] + [as_key(k) for k in trusted_keys]
    for key in keys:
        if key_id(key) == parts[3]:
            expected = hmac.new(key, manifest, "sha256").hexdigest()
            if hmac.compare_digest(expected, parts[4]):
                return None
            return f"its signature under key {parts[3]} does not verify (forged or altered)"
    return f"it is signed with key {parts[3]}, which is not yours and not in trusted_keys"


def trusted_key_list(trusted_keys) -> tuple:
    """`trusted_keys` (None, one key, or several) as a tuple of keys, checked now so that a
    bad key is the caller's ValueError, not a LoadError of the file."""
    if trusted_keys is None:
        return ()
    if isinstance(trusted_keys, (bytes, bytearray, str, os.PathLike)):
        trusted_keys = [trusted_keys]
    return tuple(as_key(k) for k in trusted_keys)


def object_code_refusal(archive, trusted_keys: tuple, object_code) -> str | None:
    """None when `load` may link `archive`'s object code (signed under a trusted key, or
    `object_code` True), else why it loads from the IR."""
    if object_code is True:
        return None
    if object_code is False:
        return "object_code=False"
    if object_code is not None:
        raise TypeError("object_code= is None (trust signed archives), True or False")
    why = untrusted(archive.manifest_bytes, archive.signature, trusted_keys)
    return None if why is None else f"object code not trusted: {why}"

