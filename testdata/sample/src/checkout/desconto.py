def aplicar_desconto(carrinho, cupom=None):
    percentuais = []
    if cupom:
        percentuais.append(("cupom", cupom.percentual))
    if len(carrinho.itens) >= 3:
        percentuais.append(("progressivo", 10))
    for origem, pct in percentuais:
        carrinho.descontos.append((origem, carrinho.subtotal * pct // 100))
    return carrinho
