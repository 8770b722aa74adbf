"""Editing a MaskablePPO model zip for the model-file tests: one entry replaced or edited, the rest copied."""

from __future__ import annotations

import io
import json
import zipfile


def rewrite_zip(src, dst, entry, blob=None, data_edit=None, state_dict_edit=None):
    """Copy model zip ``src`` to ``dst`` with ``entry`` replaced by ``blob``, or, for a JSON entry (``data``),
    the dict edited in place by ``data_edit``, or, for a torch entry (``policy.pth``), its state dict replaced by
    ``state_dict_edit(state_dict)``; returns ``dst``."""
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w") as zout:
        for item in zin.infolist():
            raw = zin.read(item.filename)
            if item.filename == entry:
                if data_edit is not None:
                    d = json.loads(raw)
                    data_edit(d)
                    raw = json.dumps(d).encode()
                elif state_dict_edit is not None:
                    import torch

                    buf = io.BytesIO()
                    torch.save(state_dict_edit(torch.load(io.BytesIO(raw), weights_only=True)), buf)
                    raw = buf.getvalue()
                else:
                    raw = blob
            zout.writestr(item, raw)
    return dst
