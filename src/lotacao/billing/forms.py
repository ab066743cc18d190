"""Forms of the billing screens (Portuguese labels; dates dd/mm/aaaa)."""

from __future__ import annotations

from typing import Any

from django import forms

from lotacao.core.dateinputs import DateField, DateInput


def _choices(form: forms.Form, name: str, choices: list[tuple[str, str]]) -> None:
    field = form.fields[name]
    assert isinstance(field, forms.ChoiceField)
    field.choices = choices


DATE = DateInput()
MONTH_HELP = "mm/aaaa"


class ReasonField(forms.CharField):
    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("label", "Motivo ou observação")
        kwargs.setdefault("max_length", 300)
        super().__init__(**kwargs)


class PaymentForm(forms.Form):
    paid_on = DateField(label="Pago em", widget=DATE)
    reference = forms.CharField(label="Comprovante", max_length=100, required=False)
    reason = ReasonField(initial="Pagamento apresentado no balcão")


class CancelForm(forms.Form):
    reason = ReasonField(label="Motivo do cancelamento")


class FeeForm(forms.Form):
    fee = forms.ChoiceField(label="Taxa")
    months = forms.IntegerField(label="Meses (taxas por mês)", min_value=1, required=False)
    reason = ReasonField(initial="Serviço pedido no balcão")

    def __init__(self, *args: Any, fees: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _choices(self, "fee", fees)


class AccountForm(forms.Form):
    on = DateField(label="Data", widget=DATE)
    reason = ReasonField()


class DeclarationForm(forms.Form):
    line = forms.ChoiceField(label="Linha")
    month = forms.CharField(label="Mês (mm/aaaa)", max_length=7)
    full_passengers = forms.IntegerField(label="Passageiros pagantes (tarifa inteira)", min_value=0)
    reduced_passengers = forms.IntegerField(label="Passageiros com desconto", min_value=0, initial=0)
    free_passengers = forms.IntegerField(label="Passageiros com gratuidade", min_value=0, initial=0)
    km = forms.DecimalField(label="Quilômetros rodados", min_value=0, decimal_places=1, initial=0)
    revenue = forms.DecimalField(
        label="Receita tarifária (R$)", min_value=0, decimal_places=2, required=False
    )
    reason = ReasonField(initial="Declaração do mês")

    def __init__(self, *args: Any, lines: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _choices(self, "line", lines)


class CorrectionForm(forms.Form):
    full_passengers = forms.IntegerField(label="Passageiros pagantes (tarifa inteira)", min_value=0)
    reduced_passengers = forms.IntegerField(label="Passageiros com desconto", min_value=0)
    free_passengers = forms.IntegerField(label="Passageiros com gratuidade", min_value=0)
    km = forms.DecimalField(label="Quilômetros rodados", min_value=0, decimal_places=1)
    revenue = forms.DecimalField(
        label="Receita tarifária (R$)", min_value=0, decimal_places=2, required=False
    )
    reason = ReasonField(label="Motivo da correção")


class RunForm(forms.Form):
    jurisdiction = forms.ChoiceField(label="Jurisdição")
    period = forms.CharField(label="Competência (mm/aaaa)", max_length=7)
    reason = ReasonField(initial="Simulação do faturamento do mês")

    def __init__(self, *args: Any, jurisdictions: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _choices(self, "jurisdiction", jurisdictions)


class BankImportForm(forms.Form):
    jurisdiction = forms.ChoiceField(label="Jurisdição")
    file = forms.FileField(
        label="Arquivo do banco (OFX, retorno CNAB 240 ou CNAB 400, ou CSV: data; valor; codigo)"
    )
    reason = ReasonField(initial="Conciliação do extrato bancário")

    def __init__(self, *args: Any, jurisdictions: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _choices(self, "jurisdiction", jurisdictions)


class AssignCreditForm(forms.Form):
    slip_code = forms.CharField(label="Código da guia que o crédito paga", max_length=30)
    reason = ReasonField(initial="Crédito identificado pelo atendimento")


class DismissCreditForm(forms.Form):
    reason = ReasonField(label="Motivo do descarte (por exemplo, devolvido ao pagador)")


class FareForm(forms.Form):
    line = forms.ChoiceField(label="Linha")
    valid_from = DateField(label="Em vigor desde", widget=DATE)
    amount = forms.DecimalField(label="Tarifa (R$)", min_value=0, decimal_places=2)
    reduced_amount = forms.DecimalField(
        label="Tarifa com desconto (R$)", min_value=0, decimal_places=2, required=False
    )
    act = forms.CharField(label="Ato que fixou a tarifa", max_length=300)
    council_opinion = forms.CharField(label="Parecer do conselho", max_length=300, required=False)
    study = forms.ChoiceField(label="Estudo tarifário", required=False)
    reason = ReasonField(initial="Tarifa fixada pelo ato citado")

    def __init__(
        self,
        *args: Any,
        lines: list[tuple[str, str]],
        studies: list[tuple[str, str]],
        council: tuple[str, list[tuple[str, str]]] = ("", []),
        **kwargs: Any,
    ):
        super().__init__(*args, **kwargs)
        _choices(self, "line", lines)
        _choices(self, "study", [("", "—"), *studies])
        add_council_field(self, council)


def add_council_field(form: forms.Form, council: tuple[str, list[tuple[str, str]]]) -> None:
    """The council's resolution select where a law of the user's agencies submits the fare to a
    council (the help says which and where; the choices come from the councils app)."""
    help_text, choices = council
    if not help_text:
        return
    form.fields["resolution"] = forms.ChoiceField(
        label="Resolução do conselho",
        choices=[("", "Nenhuma"), *choices],
        required=False,
        help_text=help_text,
    )
    form.fields["council_opinion"].label = "Observação sobre o parecer"


class ReadjustmentForm(forms.Form):
    jurisdiction = forms.ChoiceField(label="Jurisdição")
    valid_from = DateField(label="Em vigor desde", widget=DATE)
    percent = forms.DecimalField(label="Percentual de reajuste (%)", decimal_places=4)
    act = forms.CharField(label="Ato do reajuste", max_length=300)
    council_opinion = forms.CharField(label="Parecer do conselho", max_length=300, required=False)
    reason = ReasonField(initial="Reajuste tarifário")

    def __init__(
        self,
        *args: Any,
        jurisdictions: list[tuple[str, str]],
        council: tuple[str, list[tuple[str, str]]] = ("", []),
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        _choices(self, "jurisdiction", jurisdictions)
        add_council_field(self, council)


STUDY_FIELDS = [
    ("fleet", "Frota (veículos)"),
    ("km_per_vehicle", "Quilometragem mensal por veículo"),
    ("equivalent_passengers", "Passageiros equivalentes por mês"),
    ("fuel_price", "Combustível: preço por litro (R$)"),
    ("fuel_consumption", "Combustível: litros por km"),
    ("lubricants_price", "Lubrificantes: preço por litro (R$)"),
    ("lubricants_consumption", "Lubrificantes: litros por km"),
    ("tyres_price", "Rodagem: custo por unidade (R$)"),
    ("tyres_consumption", "Rodagem: unidades por km"),
    ("parts_price", "Peças e acessórios: custo de referência (R$)"),
    ("parts_consumption", "Peças e acessórios: fração por km"),
    ("maintenance_price", "Manutenção: custo de referência (R$)"),
    ("maintenance_consumption", "Manutenção: fração por km"),
    ("vehicle_price", "Preço do veículo novo (R$)"),
    ("depreciation_rate", "Depreciação (% ao ano)"),
    ("return_rate", "Remuneração do capital (% ao ano)"),
    ("operators_per_vehicle", "Operadores por veículo"),
    ("monthly_pay", "Remuneração mensal por operador (R$)"),
    ("charges_percent", "Encargos sobre a remuneração (%)"),
    ("insurance", "Seguro, taxas e encargos por veículo por mês (R$)"),
    ("washing", "Lavagem e limpeza por veículo por mês (R$)"),
    ("administration", "Despesas administrativas por mês (R$)"),
    ("tax_iss", "ISS (%)"),
    ("tax_pis", "PIS (%)"),
    ("tax_cofins", "COFINS (%)"),
    ("tax_ir", "Imposto de Renda (%)"),
]


class StudyForm(forms.Form):
    jurisdiction = forms.ChoiceField(label="Jurisdição")
    title = forms.CharField(label="Título", max_length=200)
    line = forms.ChoiceField(label="Linha", required=False)
    revision = forms.BooleanField(label="Revisão da tarifa em vigor", required=False)
    requested_by = forms.CharField(label="Pedido de revisão de", max_length=200, required=False)
    request_reference = forms.CharField(label="Protocolo do pedido", max_length=100, required=False)
    reason = ReasonField(initial="Estudo tarifário")

    def __init__(
        self, *args: Any, jurisdictions: list[tuple[str, str]], lines: list[tuple[str, str]], **kwargs: Any
    ):
        super().__init__(*args, **kwargs)
        _choices(self, "jurisdiction", jurisdictions)
        _choices(self, "line", [("", "Todo o serviço"), *lines])
        for name, label in STUDY_FIELDS:
            self.fields[name] = forms.DecimalField(label=label, min_value=0, required=False)
