"""Readers of the files banks give agencies: OFX statements (1.x SGML and 2.x XML, read with
ofxtools), FEBRABAN CNAB 240 returns (collection segments T and U — boletos and Bolepix — and the
account statement's segment E), CNAB 400 collection returns (Bradesco's layout) and our CSV.

Every reader turns a file into `Credit`s (what the bank says came in) or refuses the whole file
with a Portuguese `ValidationError` naming the line: a record of the wrong length (a truncated
line), a trailer whose counts disagree with the records, a sequence number out of order, a field
that is not a number or a date, an OFX that does not parse, a format we do not know. Nothing is
written here; the reconciliation (`reconcile.py`) decides what each credit pays.

Positions are 1-based and inclusive, as the layouts publish them:
- CNAB 240: FEBRABAN "Layout Padrão CNAB 240" v10.x — file header (record 0), batch header
  (record 1: service 01 collection, 04 statement for bank reconciliation), detail (record 3:
  segments T, U, E), batch trailer (record 5: records in the batch at 018–023) and file trailer
  (record 9: batches at 018–023, records at 024–029). Only liquidations (movement 06, and 17 —
  paid after write-off) of segment T/U are credits; segment E credits are entries of type "C".
- CNAB 400 is each bank's own: `BRADESCO_400` is Bradesco's "Cobrança — arquivo retorno" layout
  (occurrences 06, 15 and 17 are payments); another bank's is a second table of the same shape
  passed to `read_cnab400`.
"""

from __future__ import annotations

import csv
import datetime as dt
import hashlib
import io
import re
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from zoneinfo import ZoneInfo

from django.core.exceptions import ValidationError

MAX_BYTES = 5 * 1024 * 1024
ZONE = ZoneInfo("America/Sao_Paulo")
# The slip codes of slips.py: `<JJJ><12 digits>` (a charge) or `<JJJ>M<8 digits><aaaamm>` (a month).
SLIP_CODE = re.compile(r"(?<![A-Z0-9])([A-Z]{3}(?:M\d{14}|\d{12}))(?![A-Z0-9])")


@dataclass
class Credit:
    """A credit the bank reports: where in the file, the bank's id of it, the day, the value, and
    the texts that may carry the slip's code."""

    where: str
    bank_id: str
    paid_on: dt.date
    amount: Decimal
    texts: list[str] = field(default_factory=list)
    payer: str = ""
    source: str = ""

    @property
    def codes(self) -> list[str]:
        found: list[str] = []
        for text in self.texts:
            for code in SLIP_CODE.findall(text.upper()):
                if code not in found:
                    found.append(code)
        return found

    @property
    def shown_code(self) -> str:
        codes = self.codes
        return codes[0] if codes else next((t.strip() for t in self.texts if t.strip()), "")


@dataclass
class Statement:
    format: str  # csv, ofx, cnab240, cnab400
    label: str  # what a person reads: "Retorno CNAB 240 (banco 001)"
    credits: list[Credit]
    ignored: list[dict[str, str]] = field(default_factory=list)


def _text(content: bytes) -> str:
    try:
        return content.decode("utf-8-sig")
    except UnicodeDecodeError:
        return content.decode("latin-1")


def detect(content: bytes) -> str:
    """The file's format, from its content (never from its name)."""
    if len(content) > MAX_BYTES:
        raise ValidationError("Arquivo grande demais (máximo de 5 MB).")
    if not content.strip():
        raise ValidationError("O arquivo está vazio.")
    if b"\x00" in content:
        raise ValidationError("Formato de arquivo não reconhecido: o arquivo não é texto.")
    head = _text(content[:4096]).lstrip().upper()
    if head.startswith("OFXHEADER") or "<OFX>" in head or (head.startswith("<?XML") and "OFX" in head):
        return "ofx"
    first = _text(content).splitlines()[0].rstrip("\r\n")
    lowered = first.lower()
    if "data" in lowered and "valor" in lowered and "codigo" in lowered:
        return "csv"
    if first[:1].isdigit() and len(first) == 240:
        return "cnab240"
    if first[:1] == "0" and len(first) == 400:
        return "cnab400"
    if first[:1].isdigit() and len(first) in range(200, 460):
        raise ValidationError(
            f"Linha 1 com {len(first)} caracteres: um arquivo CNAB tem 240 (CNAB 240) ou 400 "
            "(CNAB 400) por linha."
        )
    raise ValidationError(
        "Formato de arquivo não reconhecido: envie um extrato OFX, um retorno CNAB 240 ou CNAB 400, "
        "ou a planilha CSV (data; valor; codigo; id_transacao)."
    )


def read(content: bytes) -> Statement:
    kind = detect(content)
    if kind == "ofx":
        return read_ofx(content)
    if kind == "cnab240":
        return read_cnab240(content)
    if kind == "cnab400":
        return read_cnab400(content)
    return read_csv(content)


# ----------------------------------------------------------------------------- fixed width


def _lines(content: bytes, width: int, name: str) -> list[str]:
    lines = [line.rstrip("\r") for line in _text(content).split("\n")]
    while lines and not lines[-1].strip():
        lines.pop()
    for number, line in enumerate(lines, start=1):
        if len(line) != width:
            raise ValidationError(
                f"Linha {number}: registro com {len(line)} caracteres; o {name} exige {width} "
                "(linha truncada ou arquivo de outro leiaute). Nada foi importado."
            )
    return lines


def _field(line: str, start: int, end: int) -> str:
    return line[start - 1 : end]


def _number(line: str, start: int, end: int, number: int, what: str) -> int:
    raw = _field(line, start, end)
    if not raw.strip():
        return 0
    if not raw.isdigit():
        raise ValidationError(
            f"Linha {number}, posições {start}–{end} ({what}): esperado um número, veio {raw.strip()!r}."
        )
    return int(raw)


def _money(line: str, start: int, end: int, number: int, what: str) -> Decimal:
    return Decimal(_number(line, start, end, number, what)) / 100


def _day(line: str, start: int, end: int, number: int, what: str) -> dt.date | None:
    raw = _field(line, start, end)
    if not raw.strip() or set(raw) == {"0"}:
        return None
    try:
        if len(raw) == 8:
            return dt.date(int(raw[4:]), int(raw[2:4]), int(raw[:2]))
        return dt.date(2000 + int(raw[4:]), int(raw[2:4]), int(raw[:2]))
    except ValueError:
        fmt = "DDMMAAAA" if len(raw) == 8 else "DDMMAA"
        raise ValidationError(
            f"Linha {number}, posições {start}–{end} ({what}): data inválida {raw!r} (esperado {fmt})."
        ) from None


# ----------------------------------------------------------------------------- CNAB 240

LIQUIDATIONS_240 = {"06": "liquidação", "17": "liquidação após baixa"}


def read_cnab240(content: bytes) -> Statement:
    lines = _lines(content, 240, "CNAB 240")
    if _field(lines[0], 8, 8) != "0":
        raise ValidationError("Linha 1: o CNAB 240 começa pelo header de arquivo (registro tipo 0).")
    if _field(lines[0], 143, 143) != "2":
        raise ValidationError(
            "Linha 1, posição 143: o arquivo não é de retorno (1 = remessa, 2 = retorno): envie o "
            "arquivo que o banco devolveu."
        )
    bank = _field(lines[0], 1, 3)
    credits: list[Credit] = []
    ignored: list[dict[str, str]] = []
    batches = 0
    batch_start: int | None = None
    service = ""
    pending_t: tuple[int, str] | None = None
    trailer_seen = False
    for number, line in enumerate(lines, start=1):
        kind = _field(line, 8, 8)
        if trailer_seen:
            raise ValidationError(f"Linha {number}: registro depois do trailer de arquivo (tipo 9).")
        if number == 1:
            continue
        if kind == "0":
            raise ValidationError(f"Linha {number}: segundo header de arquivo.")
        if kind == "1":
            if batch_start is not None:
                raise ValidationError(f"Linha {number}: lote aberto sem o trailer do lote anterior.")
            batch_start, service, batches = number, _field(line, 10, 11), batches + 1
            if service not in ("01", "04"):
                raise ValidationError(
                    f"Linha {number}, posições 10–11: serviço {service!r} não é cobrança (01) nem "
                    "extrato para conciliação (04)."
                )
        elif kind == "3":
            if batch_start is None:
                raise ValidationError(f"Linha {number}: registro de detalhe fora de um lote.")
            segment = _field(line, 14, 14)
            if segment == "T":
                if pending_t is not None:
                    raise ValidationError(f"Linha {number}: segmento T sem o segmento U do anterior.")
                pending_t = (number, line)
            elif segment == "U":
                if pending_t is None:
                    raise ValidationError(f"Linha {number}: segmento U sem o segmento T que o precede.")
                credit = _t_u(bank, *pending_t, number, line, ignored)
                if credit is not None:
                    credits.append(credit)
                pending_t = None
            elif segment == "E":
                credit = _segment_e(bank, number, line, ignored)
                if credit is not None:
                    credits.append(credit)
            else:
                ignored.append({"onde": f"linha {number}", "motivo": f"segmento {segment} não lido"})
        elif kind == "5":
            if batch_start is None:
                raise ValidationError(f"Linha {number}: trailer de lote sem header de lote.")
            if pending_t is not None:
                raise ValidationError(f"Linha {pending_t[0]}: segmento T sem o segmento U.")
            declared = _number(line, 18, 23, number, "quantidade de registros do lote")
            actual = number - batch_start + 1
            if declared != actual:
                raise ValidationError(
                    f"Linha {number}: o trailer do lote informa {declared} registros, mas o lote tem "
                    f"{actual} (linhas {batch_start} a {number}): arquivo incompleto ou alterado."
                )
            batch_start = None
        elif kind == "9":
            if batch_start is not None:
                raise ValidationError(f"Linha {number}: trailer de arquivo com um lote ainda aberto.")
            declared_batches = _number(line, 18, 23, number, "quantidade de lotes")
            declared_records = _number(line, 24, 29, number, "quantidade de registros")
            if declared_batches != batches or declared_records != len(lines):
                raise ValidationError(
                    f"Linha {number}: o trailer de arquivo informa {declared_batches} lotes e "
                    f"{declared_records} registros, mas o arquivo tem {batches} e {len(lines)}: "
                    "arquivo incompleto ou alterado."
                )
            trailer_seen = True
        else:
            raise ValidationError(f"Linha {number}, posição 8: tipo de registro {kind!r} desconhecido.")
    if not trailer_seen:
        raise ValidationError(
            f"O arquivo termina na linha {len(lines)} sem o trailer de arquivo (registro tipo 9): "
            "arquivo truncado. Nada foi importado."
        )
    return Statement("cnab240", f"Retorno CNAB 240 (banco {bank})", credits, ignored)


def _t_u(
    bank: str, t_number: int, t: str, u_number: int, u: str, ignored: list[dict[str, str]]
) -> Credit | None:
    movement = _field(t, 16, 17)
    if movement not in LIQUIDATIONS_240:
        ignored.append(
            {"onde": f"linhas {t_number}–{u_number}", "motivo": f"movimento {movement}: não é liquidação"}
        )
        return None
    our_number = _field(t, 38, 57).strip()
    paid_on = _day(u, 138, 145, u_number, "data da ocorrência") or _day(
        u, 146, 153, u_number, "data do crédito"
    )
    if paid_on is None:
        raise ValidationError(f"Linha {u_number}, posições 138–145: liquidação sem a data da ocorrência.")
    amount = _money(u, 78, 92, u_number, "valor pago")
    return Credit(
        where=f"linhas {t_number}–{u_number}",
        bank_id=f"cnab240:{bank}:{our_number}:{paid_on:%Y%m%d}",
        paid_on=paid_on,
        amount=amount,
        texts=[_field(t, 106, 130), _field(t, 59, 73), our_number],  # uso da empresa, seu número
        payer=_field(t, 149, 188).strip(),
        source="cnab240",
    )


def _segment_e(bank: str, number: int, line: str, ignored: list[dict[str, str]]) -> Credit | None:
    if _field(line, 169, 169) != "C":
        ignored.append({"onde": f"linha {number}", "motivo": "lançamento a débito"})
        return None
    paid_on = _day(line, 143, 150, number, "data do lançamento")
    if paid_on is None:
        raise ValidationError(f"Linha {number}, posições 143–150: lançamento sem data.")
    amount = _money(line, 151, 168, number, "valor do lançamento")
    account = f"{_field(line, 53, 57)}{_field(line, 59, 70)}".strip()
    document = _field(line, 202, 240).strip()
    key = document or hashlib.sha256(line[13:].encode()).hexdigest()[:24]
    return Credit(
        where=f"linha {number}",
        bank_id=f"cnab240e:{bank}:{account}:{paid_on:%Y%m%d}:{key}",
        paid_on=paid_on,
        amount=amount,
        texts=[_field(line, 114, 133), _field(line, 177, 201), document],
        source="cnab240",
    )


# ----------------------------------------------------------------------------- CNAB 400

# name → (start, end), 1-based inclusive. Bradesco, "Cobrança Bradesco — arquivo retorno" (400).
BRADESCO_400: dict[str, tuple[int, int]] = {
    "record": (1, 1),
    "return": (2, 2),  # header: 2 = retorno
    "bank": (77, 79),  # header
    "company_control": (38, 62),  # nº de controle do participante (uso da empresa)
    "our_number": (71, 82),  # identificação do título no banco (nosso número com DV)
    "occurrence": (109, 110),
    "occurred_on": (111, 116),  # DDMMAA
    "document": (117, 126),  # número do documento (seu número)
    "amount_paid": (254, 266),
    "credited_on": (296, 301),  # DDMMAA
    "sequence": (395, 400),
}
BRADESCO_400_PAYMENTS = {
    "06": "liquidação normal",
    "15": "liquidação em cartório",
    "17": "liquidação após baixa",
}


def read_cnab400(
    content: bytes,
    layout: dict[str, tuple[int, int]] = BRADESCO_400,
    payments: dict[str, str] = BRADESCO_400_PAYMENTS,
) -> Statement:
    lines = _lines(content, 400, "CNAB 400")

    def f(line: str, name: str) -> str:
        return _field(line, *layout[name])

    if f(lines[0], "record") != "0" or f(lines[0], "return") != "2":
        raise ValidationError(
            "Linha 1: o CNAB 400 começa pelo header de retorno (registro 0, posição 2 = 2)."
        )
    bank = f(lines[0], "bank")
    credits: list[Credit] = []
    ignored: list[dict[str, str]] = []
    trailer = False
    for number, line in enumerate(lines, start=1):
        start, end = layout["sequence"]
        sequence = _number(line, start, end, number, "número sequencial")
        if sequence != number:
            raise ValidationError(
                f"Linha {number}, posições {start}–{end}: número sequencial {sequence:06d}, esperado "
                f"{number:06d} (registro faltando, repetido ou fora de ordem)."
            )
        kind = f(line, "record")
        if trailer:
            raise ValidationError(f"Linha {number}: registro depois do trailer (tipo 9).")
        if number == 1:
            continue
        if kind == "9":
            trailer = True
            continue
        if kind != "1":
            ignored.append({"onde": f"linha {number}", "motivo": f"registro tipo {kind} não lido"})
            continue
        occurrence = f(line, "occurrence")
        if occurrence not in payments:
            ignored.append(
                {"onde": f"linha {number}", "motivo": f"ocorrência {occurrence}: não é liquidação"}
            )
            continue
        paid_on = _day(line, *layout["occurred_on"], number, "data da ocorrência")
        if paid_on is None:
            raise ValidationError(f"Linha {number}: liquidação sem a data da ocorrência.")
        our_number = f(line, "our_number").strip()
        credits.append(
            Credit(
                where=f"linha {number}",
                bank_id=f"cnab400:{bank}:{our_number}:{paid_on:%Y%m%d}",
                paid_on=paid_on,
                amount=_money(line, *layout["amount_paid"], number, "valor pago"),
                texts=[f(line, "company_control"), f(line, "document"), our_number],
                source="cnab400",
            )
        )
    if not trailer:
        raise ValidationError(
            f"O arquivo termina na linha {len(lines)} sem o trailer (registro tipo 9): arquivo "
            "truncado. Nada foi importado."
        )
    return Statement("cnab400", f"Retorno CNAB 400 (banco {bank})", credits, ignored)


# ----------------------------------------------------------------------------- OFX


def _local_day(value: dt.datetime) -> dt.date:
    """A posted date: a date without time (midnight UTC as ofxtools reads it) is that date."""
    if value.tzinfo is None or value.astimezone(dt.UTC).time() == dt.time(0):
        return value.date()
    return value.astimezone(ZONE).date()


def read_ofx(content: bytes) -> Statement:
    from ofxtools.Parser import OFXTree

    tree = OFXTree()
    try:
        tree.parse(io.BytesIO(content))
        ofx = tree.convert()
        statements = list(ofx.statements)
    except Exception as error:  # ofxtools raises many kinds (parse, header, conversion)
        where = re.search(r"line (\d+)", str(error))
        at = f" (perto da linha {where.group(1)})" if where else ""
        raise ValidationError(
            f"O arquivo OFX não pôde ser lido{at}: cabeçalho ou estrutura inválidos. Nada foi importado."
        ) from error
    if not statements:
        raise ValidationError("O arquivo OFX não tem extrato de conta (STMTRS). Nada foi importado.")
    credits: list[Credit] = []
    ignored: list[dict[str, str]] = []
    for statement in statements:
        account = str(getattr(statement.account, "acctid", ""))
        for n, trn in enumerate(statement.banktranlist or [], start=1):
            fitid = str(trn.fitid)
            if trn.trnamt is None or trn.trnamt <= 0:
                ignored.append({"onde": f"FITID {fitid}", "motivo": "lançamento a débito"})
                continue
            credits.append(
                Credit(
                    where=f"transação {n} (FITID {fitid})",
                    bank_id=f"ofx:{account}:{fitid}",
                    paid_on=_local_day(trn.dtposted),
                    amount=Decimal(trn.trnamt).quantize(Decimal("0.01")),
                    texts=[str(t) for t in (trn.memo, trn.name, trn.refnum, trn.checknum) if t],
                    payer=str(trn.name or ""),
                    source="ofx",
                )
            )
    return Statement("ofx", "Extrato OFX", credits, ignored)


# ----------------------------------------------------------------------------- CSV

REQUIRED = ("data", "valor", "codigo")


def _csv_date(text: str, number: int) -> dt.date:
    try:
        if "/" in text:
            day, month, year = text.split("/")
            return dt.date(int(year), int(month), int(day))
        return dt.date.fromisoformat(text)
    except ValueError:
        raise ValidationError(f"Linha {number}: data inválida {text!r} (dd/mm/aaaa ou aaaa-mm-dd).") from None


def _csv_amount(text: str, number: int) -> Decimal:
    clean = text.replace("R$", "").replace(" ", "").replace("\xa0", "")
    if "," in clean:
        clean = clean.replace(".", "").replace(",", ".")
    try:
        value = Decimal(clean)
    except InvalidOperation:
        value = Decimal("NaN")
    if not value.is_finite() or value <= 0:
        raise ValidationError(f"Linha {number}: valor inválido {text!r}.")
    return value.quantize(Decimal("0.01"))


def read_csv(content: bytes) -> Statement:
    text = _text(content)
    first = text.splitlines()[0] if text.strip() else ""
    delimiter = ";" if first.count(";") >= first.count(",") else ","
    reader = csv.DictReader(io.StringIO(text), delimiter=delimiter)
    header = [h.strip().lower() for h in (reader.fieldnames or [])]
    missing = [c for c in REQUIRED if c not in header]
    if missing:
        raise ValidationError(
            f"Cabeçalho do extrato sem a coluna {', '.join(missing)} "
            "(esperado: data; valor; codigo; id_transacao)."
        )
    credits = []
    for number, raw in enumerate(reader, start=2):
        row = {(k or "").strip().lower(): (v or "").strip() for k, v in raw.items() if isinstance(v, str)}
        paid_on, amount = _csv_date(row["data"], number), _csv_amount(row["valor"], number)
        code = row["codigo"].upper().replace(" ", "")
        bank_id = (
            row.get("id_transacao")
            or hashlib.sha256(f"{row['data']}|{row['valor']}|{row['codigo']}".encode()).hexdigest()[:40]
        )
        credits.append(
            Credit(
                where=f"linha {number}",
                bank_id=bank_id,
                paid_on=paid_on,
                amount=amount,
                texts=[code],
                source="csv",
            )
        )
    return Statement("csv", "Planilha CSV", credits)
