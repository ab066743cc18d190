"""`lotacao evaluate`: the rules engine on the command line (docs/contract/README.md).

    lotacao evaluate [PATH|-]            one case object -> one result; an array -> an array, same order
    lotacao evaluate --jsonl [PATH|-]    JSON Lines in, JSON Lines out, streamed

Nothing but JSON is written to stdout. Exit status: 0 when every case was valid, 2 when any case
was invalid (its slot holds {"error": {...}}), 1 on an internal error of the engine. Starts fast:
only orjson and, once the first case arrives, the engine and the one pack it needs are loaded.

A single document (an object or an array) is read whole, so it is refused above
`LOTACAO_EVALUATE_MAX_BYTES` (default 16 MiB) with exit status 2: large batches go through
`--jsonl`, which streams in time linear in the input (lines of any length).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from typing import IO, Any

import orjson

USAGE = (
    "uso: lotacao evaluate [--jsonl] [--overrides ARQUIVO.json] [ARQUIVO|-]\n"
    "  Avalia casos do contrato JSON do motor de regras (um objeto, uma lista ou JSON Lines).\n"
)

Evaluator = Callable[[Any], dict[str, Any]]

MAX_DOCUMENT_BYTES = int(os.environ.get("LOTACAO_EVALUATE_MAX_BYTES", str(16 * 1024 * 1024)))


class DocumentTooLarge(Exception):
    pass


class _Status:
    def __init__(self) -> None:
        self.invalid = False
        self.internal = False

    @property
    def code(self) -> int:
        return 1 if self.internal else 2 if self.invalid else 0


def _error(code: str, message: str, field: str = "") -> dict[str, Any]:
    return {"error": {"code": code, "message": message, "field": field}}


def _make_evaluator(status: _Status, overrides: Any) -> Evaluator:
    from lotacao.law.evaluate import evaluate_case

    def run(case: Any) -> dict[str, Any]:
        try:
            result = evaluate_case(case, overrides=overrides)
        except Exception as exc:  # a bug of the engine: report it in the case's slot, keep going
            import traceback

            traceback.print_exc(file=sys.stderr)
            status.internal = True
            return _error("internal_error", f"Erro interno do motor de regras: {type(exc).__name__}: {exc}")
        if "error" in result:
            status.invalid = True
        return result

    return run


def _read_all(path: str, limit: int | None = None) -> bytes:
    """The whole input; past `limit` bytes, DocumentTooLarge (nothing more is read)."""
    if path == "-":
        data = sys.stdin.buffer.read() if limit is None else sys.stdin.buffer.read(limit + 1)
    else:
        with open(path, "rb") as fh:
            data = fh.read() if limit is None else fh.read(limit + 1)
    if limit is not None and len(data) > limit:
        raise DocumentTooLarge
    return data


def _chunks(fd: int) -> Iterator[bytes]:
    while True:
        data = os.read(fd, 1 << 16)
        if not data:
            return
        yield data


def _evaluate_document(data: bytes, run: Evaluator, status: _Status, out: IO[bytes]) -> None:
    try:
        payload = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        status.invalid = True
        out.write(orjson.dumps(_error("invalid_json", f"JSON inválido: {exc}")) + b"\n")
        return
    if isinstance(payload, list):
        results: Any = [run(case) for case in payload]
    else:
        results = run(payload)
    out.write(orjson.dumps(results) + b"\n")


def _evaluate_jsonl(fd: int, run: Evaluator, status: _Status, out: IO[bytes]) -> None:
    loads, dumps = orjson.loads, orjson.dumps
    number = 0

    def one(line: bytes) -> bytes:
        nonlocal number
        number += 1
        try:
            case = loads(line)
        except orjson.JSONDecodeError as exc:
            status.invalid = True
            return dumps(_error("invalid_json", f"JSON inválido na linha {number}: {exc}"))
        return dumps(run(case))

    # The tail of an unfinished line is kept as a list of chunks and joined once, when its end
    # arrives: a line of any length costs time linear in its length.
    pending: list[bytes] = []
    for data in _chunks(fd):
        cut = data.rfind(b"\n")
        if cut < 0:
            pending.append(data)
            continue
        pending.append(data[:cut])
        block = b"".join(pending)
        pending = [data[cut + 1 :]]
        results = [one(line) for line in block.split(b"\n") if line.strip()]
        if results:
            out.write(b"\n".join(results) + b"\n")
            out.flush()  # streamed: each chunk of input is answered before the next is read
    tail = b"".join(pending)
    if tail.strip():
        out.write(one(tail) + b"\n")
    out.flush()


def evaluate_command(argv: list[str]) -> int:
    jsonl = False
    path = "-"
    overrides_path: str | None = None
    args = iter(argv)
    seen_path = False
    for arg in args:
        if arg == "--jsonl":
            jsonl = True
        elif arg == "--overrides":
            overrides_path = next(args, None)
            if overrides_path is None:
                sys.stderr.write(USAGE)
                return 2
        elif arg in ("-h", "--help"):
            sys.stderr.write(USAGE)
            return 0
        elif arg.startswith("--"):
            sys.stderr.write(f"opção desconhecida: {arg}\n" + USAGE)
            return 2
        elif not seen_path:
            path, seen_path = arg, True
        else:
            sys.stderr.write(USAGE)
            return 2

    out = sys.stdout.buffer
    status = _Status()
    overrides: Any = None
    try:
        if overrides_path is not None:
            overrides = orjson.loads(_read_all(overrides_path))
        if jsonl:
            run = _make_evaluator(status, overrides)
            if path == "-":
                _evaluate_jsonl(sys.stdin.fileno(), run, status, out)
            else:
                fd = os.open(path, os.O_RDONLY)
                try:
                    _evaluate_jsonl(fd, run, status, out)
                finally:
                    os.close(fd)
        else:
            data = _read_all(path, MAX_DOCUMENT_BYTES)
            _evaluate_document(data, _make_evaluator(status, overrides), status, out)
    except DocumentTooLarge:
        message = (
            f"Documento maior que {MAX_DOCUMENT_BYTES // (1024 * 1024)} MiB: envie os casos um por linha "
            "com --jsonl (JSON Lines), que processa qualquer tamanho."
        )
        out.write(orjson.dumps(_error("document_too_large", message)) + b"\n")
        return 2
    except OSError as exc:
        out.write(
            orjson.dumps(_error("unreadable_input", f"Não foi possível ler {exc.filename}: {exc.strerror}."))
        )
        out.write(b"\n")
        return 2
    except orjson.JSONDecodeError as exc:
        out.write(orjson.dumps(_error("invalid_json", f"JSON inválido em --overrides: {exc}", "overrides")))
        out.write(b"\n")
        return 2
    out.flush()
    return status.code


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] in ("-h", "--help"):
        sys.stderr.write(USAGE)
        return 0 if args else 2
    if args[0] == "evaluate":
        return evaluate_command(args[1:])
    sys.stderr.write(f"comando desconhecido: {args[0]}\n" + USAGE)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
