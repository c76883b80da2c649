// Demo catalogue of a município: real item names × variants, with their unit of supply, grouped by the
// registros grupos (expediente, limpeza, alimentos, medicamentos, informática, serviços). Pure data:
// the seed looks the grupos, sub-grupos, unidades and tipos de material up by code or name.
import type { TipoItem } from '../shared/index.js';

export type GrupoDemo = 'expediente' | 'limpeza' | 'alimentos' | 'medicamentos' | 'informatica' | 'servicos';
export type TipoMaterialDemo = 'consumo' | 'permanente';

/** Units the catalogue uses, by sigla (the seed matches them to registros' unidades). */
export type UnidadeDemo =
  | 'UN'
  | 'CX'
  | 'PCT'
  | 'RESMA'
  | 'KG'
  | 'G'
  | 'L'
  | 'ML'
  | 'FR'
  | 'GL'
  | 'CP'
  | 'CAP'
  | 'AMP'
  | 'BG'
  | 'TB'
  | 'PAR'
  | 'RL'
  | 'DZ'
  | 'FD'
  | 'M'
  | 'M2'
  | 'H'
  | 'MES'
  | 'DIA'
  | 'KM'
  | 'SV'
  | 'LT';

export interface ProdutoDemo {
  descricao: string;
  tipo: TipoItem;
  grupo: GrupoDemo;
  subGrupo: string | null;
  unidade: UnidadeDemo;
  tipoMaterial: TipoMaterialDemo | null;
  especificacao: string | null;
}

interface Family {
  grupo: GrupoDemo;
  subGrupo: string;
  tipo?: TipoItem;
  tipoMaterial?: TipoMaterialDemo;
  unidade: UnidadeDemo;
  /** `{v}` is replaced by each variant; without it the variant is appended after ', '. */
  nome: string;
  variantes: (string | [variante: string, unidade: UnidadeDemo])[];
  especificacao?: string;
}

const F = (f: Family) => f;

const FAMILIAS: Family[] = [
  // --- Material de expediente ------------------------------------------------------------------
  F({
    grupo: 'expediente',
    subGrupo: 'Papelaria',
    unidade: 'RESMA',
    nome: 'Papel sulfite A4 75 g/m², {v}, resma 500 folhas',
    variantes: ['branco', 'reciclado', 'alcalino branco'],
    especificacao: 'Formato 210 x 297 mm, gramatura 75 g/m², embalagem com 500 folhas.',
  }),
  F({
    grupo: 'expediente',
    subGrupo: 'Papelaria',
    unidade: 'RESMA',
    nome: 'Papel sulfite {v}, resma 500 folhas',
    variantes: ['A3 75 g/m²', 'ofício 2 75 g/m²', 'A4 90 g/m²'],
  }),
  F({
    grupo: 'expediente',
    subGrupo: 'Papelaria',
    unidade: 'PCT',
    nome: 'Papel {v}',
    variantes: [
      'color set A4 180 g/m², pacote 50 folhas',
      'vergê A4 180 g/m² branco, pacote 50 folhas',
      'fotográfico A4 glossy 180 g/m², pacote 20 folhas',
      'cartolina 50 x 66 cm branca, pacote 100 folhas',
    ],
  }),
  F({
    grupo: 'expediente',
    subGrupo: 'Escrita e correção',
    unidade: 'UN',
    nome: 'Caneta esferográfica {v}',
    variantes: ['azul, ponta média 1,0 mm', 'preta, ponta média 1,0 mm', 'vermelha, ponta média 1,0 mm', 'azul, ponta fina 0,7 mm', 'preta, ponta fina 0,7 mm'],
  }),
  F({
    grupo: 'expediente',
    subGrupo: 'Escrita e correção',
    unidade: 'CX',
    nome: 'Caneta esferográfica {v}, caixa com 50 unidades',
    variantes: ['azul', 'preta'],
  }),
  F({
    grupo: 'expediente',
    subGrupo: 'Escrita e correção',
    unidade: 'UN',
    nome: 'Lápis {v}',
    variantes: ['preto nº 2 sextavado', 'de cor, caixa com 12 cores', 'borracha branca macia nº 40'],
  }),
  F({
    grupo: 'expediente',
    subGrupo: 'Escrita e correção',
    unidade: 'UN',
    nome: 'Marca-texto fluorescente {v}',
    variantes: ['amarelo', 'verde', 'rosa', 'laranja'],
  }),
  F({
    grupo: 'expediente',
    subGrupo: 'Escrita e correção',
    unidade: 'UN',
    nome: 'Pincel para quadro branco {v}',
    variantes: ['azul', 'preto', 'vermelho', 'verde'],
  }),
  F({ grupo: 'expediente', subGrupo: 'Escrita e correção', unidade: 'UN', nome: 'Pincel atômico {v}', variantes: ['azul', 'preto', 'vermelho'] }),
  F({
    grupo: 'expediente',
    subGrupo: 'Escrita e correção',
    unidade: 'UN',
    nome: 'Corretivo {v}',
    variantes: ['líquido à base de água, frasco 18 ml', 'em fita 5 mm x 6 m'],
  }),
  F({
    grupo: 'expediente',
    subGrupo: 'Arquivo',
    unidade: 'UN',
    nome: 'Pasta {v}',
    variantes: [
      'suspensa marmorizada com grampo e etiqueta',
      'AZ lombo largo, ofício',
      'AZ lombo estreito, ofício',
      'com elástico 35 mm, polipropileno azul',
      'com elástico 35 mm, polipropileno transparente',
      'catálogo com 50 envelopes plásticos',
    ],
  }),
  F({ grupo: 'expediente', subGrupo: 'Arquivo', unidade: 'UN', nome: 'Caixa arquivo morto em polionda {v}', variantes: ['azul', 'amarela', 'cinza', 'verde'] }),
  F({
    grupo: 'expediente',
    subGrupo: 'Envelopes',
    unidade: 'UN',
    nome: 'Envelope saco kraft {v}',
    variantes: ['24 x 34 cm', '26 x 36 cm', '31 x 41 cm', '18 x 25 cm'],
  }),
  F({
    grupo: 'expediente',
    subGrupo: 'Envelopes',
    unidade: 'CX',
    nome: 'Envelope ofício branco 114 x 229 mm, {v}',
    variantes: ['com janela, caixa com 100 unidades', 'sem janela, caixa com 100 unidades'],
  }),
  F({
    grupo: 'expediente',
    subGrupo: 'Fixação',
    unidade: 'CX',
    nome: 'Grampo para grampeador {v}',
    variantes: ['26/6 galvanizado, caixa 5000 unidades', '23/10 galvanizado, caixa 1000 unidades', '23/13 galvanizado, caixa 1000 unidades'],
  }),
  F({
    grupo: 'expediente',
    subGrupo: 'Fixação',
    unidade: 'CX',
    nome: 'Clipe galvanizado {v}, caixa 500 g',
    variantes: ['nº 2/0', 'nº 4/0', 'nº 6/0', 'nº 8/0'],
  }),
  F({
    grupo: 'expediente',
    subGrupo: 'Fixação',
    unidade: 'RL',
    nome: 'Fita adesiva {v}',
    variantes: [
      'transparente 12 mm x 30 m',
      'transparente 45 mm x 45 m',
      'crepe 18 mm x 50 m',
      'crepe 48 mm x 50 m',
      'dupla face 19 mm x 30 m',
      'de empacotamento marrom 45 mm x 100 m',
    ],
  }),
  F({
    grupo: 'expediente',
    subGrupo: 'Fixação',
    unidade: 'UN',
    nome: 'Cola {v}',
    variantes: ['branca lavável 90 g', 'branca lavável 1 kg', 'em bastão 10 g', 'em bastão 40 g', 'instantânea 5 g'],
  }),
  F({
    grupo: 'expediente',
    subGrupo: 'Papelaria',
    unidade: 'UN',
    nome: 'Bloco de notas adesivas {v}',
    variantes: ['76 x 76 mm amarelo, 100 folhas', '38 x 50 mm amarelo, 4 blocos de 100 folhas', '76 x 102 mm cores sortidas, 100 folhas'],
  }),
  F({
    grupo: 'expediente',
    subGrupo: 'Papelaria',
    unidade: 'UN',
    nome: 'Livro {v}',
    variantes: ['ata com 100 folhas numeradas', 'ata com 200 folhas numeradas', 'protocolo de correspondência com 100 folhas', 'ponto com 100 folhas'],
  }),
  F({
    grupo: 'expediente',
    subGrupo: 'Papelaria',
    unidade: 'CX',
    nome: 'Etiqueta adesiva para impressora {v}, caixa com 100 folhas',
    variantes: ['25,4 x 66,7 mm (3 colunas)', '33,9 x 101,6 mm (2 colunas)', '138,1 x 212,7 mm (2 por folha)', '55,8 x 99,0 mm (2 colunas)'],
  }),
  F({
    grupo: 'expediente',
    subGrupo: 'Utensílios',
    unidade: 'UN',
    nome: '{v}',
    variantes: [
      'Grampeador de mesa para grampos 26/6, até 25 folhas',
      'Extrator de grampos tipo espátula',
      'Perfurador de papel 2 furos, até 20 folhas',
      'Tesoura de escritório 21 cm, lâmina em aço inox',
      'Régua em acrílico cristal 30 cm',
      'Estilete largo com lâmina 18 mm',
      'Apontador de lápis com depósito',
      'Calculadora de mesa 12 dígitos',
      'Porta-lápis em acrílico fumê',
      'Carimbo autoentintado 38 x 14 mm',
    ],
  }),

  // --- Material de limpeza ----------------------------------------------------------------------
  F({
    grupo: 'limpeza',
    subGrupo: 'Saneantes',
    unidade: 'UN',
    nome: 'Água sanitária 2,0 a 2,5% de cloro ativo, {v}',
    variantes: [
      ['frasco 1 L', 'FR'],
      ['frasco 2 L', 'FR'],
      ['galão 5 L', 'GL'],
    ],
  }),
  F({
    grupo: 'limpeza',
    subGrupo: 'Saneantes',
    unidade: 'FR',
    nome: 'Detergente líquido neutro, {v}',
    variantes: [
      ['frasco 500 ml', 'FR'],
      ['galão 5 L', 'GL'],
    ],
  }),
  F({
    grupo: 'limpeza',
    subGrupo: 'Saneantes',
    unidade: 'FR',
    nome: 'Desinfetante de uso geral {v}',
    variantes: [
      ['lavanda, frasco 2 L', 'FR'],
      ['eucalipto, frasco 2 L', 'FR'],
      ['pinho, frasco 2 L', 'FR'],
      ['lavanda, galão 5 L', 'GL'],
    ],
  }),
  F({
    grupo: 'limpeza',
    subGrupo: 'Saneantes',
    unidade: 'FR',
    nome: '{v}',
    variantes: [
      'Limpador multiuso, frasco 500 ml',
      'Limpa-vidros com pulverizador, frasco 500 ml',
      'Lustra-móveis, frasco 200 ml',
      'Removedor de gordura, frasco 500 ml',
      ['Cera líquida incolor, galão 5 L', 'GL'],
      ['Cera líquida vermelha, galão 5 L', 'GL'],
      ['Amaciante de roupas, galão 5 L', 'GL'],
    ],
  }),
  F({
    grupo: 'limpeza',
    subGrupo: 'Saneantes',
    unidade: 'UN',
    nome: 'Álcool etílico {v}',
    variantes: [
      ['70% líquido, frasco 1 L', 'FR'],
      ['70% em gel, frasco 500 ml', 'FR'],
      ['70% em gel, galão 5 L', 'GL'],
      ['46,2 INPM, frasco 1 L', 'FR'],
    ],
  }),
  F({
    grupo: 'limpeza',
    subGrupo: 'Saneantes',
    unidade: 'PCT',
    nome: 'Sabão {v}',
    variantes: [
      ['em pó, caixa 1 kg', 'CX'],
      ['em pó, pacote 5 kg', 'PCT'],
      ['em barra glicerinado 200 g, pacote com 5', 'PCT'],
    ],
  }),
  F({
    grupo: 'limpeza',
    subGrupo: 'Higiene',
    unidade: 'UN',
    nome: 'Sabonete líquido {v}',
    variantes: [
      ['erva-doce, galão 5 L', 'GL'],
      ['neutro, refil 800 ml', 'UN'],
      ['antisséptico, galão 5 L', 'GL'],
    ],
  }),
  F({
    grupo: 'limpeza',
    subGrupo: 'Higiene',
    unidade: 'PCT',
    nome: 'Papel higiênico {v}',
    variantes: [
      'folha dupla 30 m, pacote com 4 rolos',
      'folha dupla 30 m, pacote com 12 rolos',
      'folha simples 60 m, pacote com 4 rolos',
      ['rolão folha simples 300 m', 'RL'],
    ],
  }),
  F({
    grupo: 'limpeza',
    subGrupo: 'Higiene',
    unidade: 'PCT',
    nome: 'Papel toalha {v}',
    variantes: ['interfolhado 2 dobras 23 x 21 cm, pacote 1000 folhas', 'interfolhado 3 dobras, pacote 1250 folhas', ['bobina 20 cm x 200 m', 'RL']],
  }),
  F({
    grupo: 'limpeza',
    subGrupo: 'Descartáveis',
    unidade: 'PCT',
    nome: 'Saco para lixo {v}, pacote com 100 unidades',
    variantes: [
      'preto 15 L',
      'preto 30 L',
      'preto 50 L',
      'preto 100 L',
      'preto 200 L reforçado',
      'azul 100 L (reciclável)',
      'branco leitoso 50 L (infectante)',
    ],
  }),
  F({
    grupo: 'limpeza',
    subGrupo: 'Descartáveis',
    unidade: 'PCT',
    nome: 'Copo plástico descartável {v}, pacote com 100',
    variantes: ['180 ml', '200 ml', '50 ml (café)'],
  }),
  F({
    grupo: 'limpeza',
    subGrupo: 'Utensílios de limpeza',
    unidade: 'UN',
    nome: '{v}',
    variantes: [
      'Vassoura de pelo sintético 40 cm com cabo',
      'Vassoura de piaçava com cabo',
      'Vassoura sanitária (escova para vaso)',
      'Rodo de alumínio 40 cm com cabo',
      'Rodo de alumínio 60 cm com cabo',
      'Pá para lixo com cabo longo',
      'Balde plástico 10 L',
      'Balde plástico 20 L',
      'Pano de chão alvejado 50 x 70 cm',
      'Flanela de algodão 40 x 60 cm',
      'Esponja dupla face 110 x 75 mm',
      'Pulverizador plástico 500 ml',
      'Lixeira com pedal 30 L',
      'Lixeira com pedal 50 L',
      'Mop úmido completo com balde espremedor',
    ],
  }),
  F({ grupo: 'limpeza', subGrupo: 'Utensílios de limpeza', unidade: 'PCT', nome: 'Palha de aço nº 1, pacote com 8 unidades', variantes: [''] }),
  F({
    grupo: 'limpeza',
    subGrupo: 'EPI',
    unidade: 'PAR',
    nome: 'Luva {v}',
    variantes: ['de látex para limpeza, tamanho P', 'de látex para limpeza, tamanho M', 'de látex para limpeza, tamanho G', 'nitrílica cano longo, tamanho M'],
  }),
  F({
    grupo: 'limpeza',
    subGrupo: 'EPI',
    unidade: 'CX',
    nome: 'Luva de procedimento em látex {v}, caixa com 100',
    variantes: ['tamanho P', 'tamanho M', 'tamanho G'],
  }),

  // --- Gêneros alimentícios ---------------------------------------------------------------------
  F({
    grupo: 'alimentos',
    subGrupo: 'Estocáveis',
    unidade: 'PCT',
    nome: '{v}',
    variantes: [
      'Arroz agulhinha tipo 1, pacote 5 kg',
      'Arroz agulhinha tipo 1, pacote 1 kg',
      'Arroz parboilizado tipo 1, pacote 5 kg',
      'Feijão carioca tipo 1, pacote 1 kg',
      'Feijão preto tipo 1, pacote 1 kg',
      'Açúcar cristal, pacote 5 kg',
      'Açúcar refinado, pacote 1 kg',
      'Sal refinado iodado, pacote 1 kg',
      'Farinha de trigo tipo 1, pacote 1 kg',
      'Farinha de mandioca torrada, pacote 1 kg',
      'Fubá mimoso, pacote 1 kg',
      'Flocos de milho (cuscuz), pacote 500 g',
      'Macarrão espaguete com ovos, pacote 500 g',
      'Macarrão parafuso com ovos, pacote 500 g',
      'Macarrão ave-maria com ovos, pacote 500 g',
      'Aveia em flocos, pacote 500 g',
      'Biscoito cream cracker, pacote 400 g',
      'Biscoito maria, pacote 400 g',
      'Biscoito de polvilho, pacote 100 g',
      'Café torrado e moído, embalagem a vácuo 500 g',
      'Chá mate tostado, caixa 250 g',
      'Achocolatado em pó, pacote 400 g',
      'Leite em pó integral, pacote 400 g',
      'Amido de milho, caixa 500 g',
    ],
  }),
  F({
    grupo: 'alimentos',
    subGrupo: 'Estocáveis',
    unidade: 'UN',
    nome: '{v}',
    variantes: [
      'Óleo de soja refinado, garrafa 900 ml',
      'Extrato de tomate, lata 340 g',
      'Sardinha em óleo, lata 125 g',
      'Milho verde em conserva, lata 200 g',
      'Ervilha em conserva, lata 200 g',
      'Vinagre de álcool, garrafa 750 ml',
      'Margarina com sal 80% lipídios, pote 500 g',
      'Doce de leite, pote 400 g',
      'Goiabada cascão, barra 300 g',
    ],
  }),
  F({ grupo: 'alimentos', subGrupo: 'Laticínios', unidade: 'L', nome: 'Leite UHT {v}, caixa 1 L', variantes: ['integral', 'desnatado', 'sem lactose'] }),
  F({
    grupo: 'alimentos',
    subGrupo: 'Laticínios',
    unidade: 'KG',
    nome: '{v}',
    variantes: ['Queijo muçarela fatiado', 'Presunto cozido fatiado', 'Iogurte natural integral', 'Manteiga com sal'],
  }),
  F({
    grupo: 'alimentos',
    subGrupo: 'Carnes e ovos',
    unidade: 'KG',
    nome: '{v}',
    variantes: [
      'Carne bovina moída de patinho, resfriada',
      'Carne bovina em cubos (acém), resfriada',
      'Carne bovina em bifes (coxão mole), resfriada',
      'Peito de frango sem osso, congelado',
      'Coxa e sobrecoxa de frango, congelada',
      'Filé de tilápia, congelado',
      'Lombo suíno em cubos, congelado',
      'Linguiça toscana, resfriada',
    ],
  }),
  F({ grupo: 'alimentos', subGrupo: 'Carnes e ovos', unidade: 'DZ', nome: 'Ovos de galinha brancos, tipo grande', variantes: [''] }),
  F({
    grupo: 'alimentos',
    subGrupo: 'Hortifrutigranjeiros',
    unidade: 'KG',
    nome: '{v}',
    variantes: [
      'Banana prata',
      'Banana nanica',
      'Maçã fuji',
      'Laranja pera',
      'Mamão formosa',
      'Melancia',
      'Abacaxi pérola',
      'Goiaba vermelha',
      'Tangerina ponkan',
      'Batata inglesa',
      'Batata-doce',
      'Cenoura',
      'Tomate',
      'Cebola',
      'Alho',
      'Abóbora cabotiá',
      'Chuchu',
      'Beterraba',
      'Mandioca descascada',
      'Repolho verde',
      'Pimentão verde',
    ],
  }),
  F({
    grupo: 'alimentos',
    subGrupo: 'Hortifrutigranjeiros',
    unidade: 'UN',
    nome: '{v}',
    variantes: ['Alface crespa, pé', 'Couve manteiga, maço', 'Cheiro-verde, maço', 'Brócolis ninja, unidade'],
  }),
  F({
    grupo: 'alimentos',
    subGrupo: 'Bebidas',
    unidade: 'FD',
    nome: 'Água mineral sem gás {v}',
    variantes: ['garrafa 500 ml, fardo com 12', 'garrafa 1,5 L, fardo com 6', ['galão retornável 20 L (recarga)', 'GL']],
  }),
  F({
    grupo: 'alimentos',
    subGrupo: 'Bebidas',
    unidade: 'L',
    nome: 'Suco {v}',
    variantes: ['integral de laranja, garrafa 1 L', 'integral de uva, garrafa 1 L', 'concentrado de caju, garrafa 500 ml'],
  }),

  // --- Medicamentos e material médico-hospitalar -----------------------------------------------
  F({
    grupo: 'medicamentos',
    subGrupo: 'Analgésicos e anti-inflamatórios',
    unidade: 'CP',
    nome: '{v}',
    variantes: [
      'Paracetamol 500 mg, comprimido',
      'Paracetamol 750 mg, comprimido',
      'Dipirona sódica 500 mg, comprimido',
      'Dipirona sódica 1 g, comprimido',
      'Ibuprofeno 300 mg, comprimido',
      'Ibuprofeno 600 mg, comprimido',
      'Ácido acetilsalicílico 100 mg, comprimido',
      'Diclofenaco sódico 50 mg, comprimido',
      'Nimesulida 100 mg, comprimido',
    ],
  }),
  F({
    grupo: 'medicamentos',
    subGrupo: 'Analgésicos e anti-inflamatórios',
    unidade: 'FR',
    nome: '{v}',
    variantes: [
      'Paracetamol 200 mg/ml, solução oral, frasco 15 ml',
      'Dipirona sódica 500 mg/ml, solução oral, frasco 10 ml',
      'Ibuprofeno 50 mg/ml, suspensão oral, frasco 30 ml',
      ['Dipirona sódica 500 mg/ml, solução injetável, ampola 2 ml', 'AMP'],
    ],
  }),
  F({
    grupo: 'medicamentos',
    subGrupo: 'Antibióticos',
    unidade: 'CAP',
    nome: '{v}',
    variantes: [
      'Amoxicilina 500 mg, cápsula',
      'Cefalexina 500 mg, cápsula',
      ['Azitromicina 500 mg, comprimido', 'CP'],
      ['Amoxicilina + clavulanato de potássio 500 mg + 125 mg, comprimido', 'CP'],
      ['Sulfametoxazol + trimetoprima 400 mg + 80 mg, comprimido', 'CP'],
      ['Ciprofloxacino 500 mg, comprimido', 'CP'],
      ['Metronidazol 250 mg, comprimido', 'CP'],
    ],
  }),
  F({
    grupo: 'medicamentos',
    subGrupo: 'Antibióticos',
    unidade: 'FR',
    nome: '{v}',
    variantes: [
      'Amoxicilina 250 mg/5 ml, pó para suspensão oral, frasco 150 ml',
      'Azitromicina 40 mg/ml, pó para suspensão oral, frasco 15 ml',
      'Cefalexina 250 mg/5 ml, suspensão oral, frasco 100 ml',
    ],
  }),
  F({
    grupo: 'medicamentos',
    subGrupo: 'Cardiovasculares',
    unidade: 'CP',
    nome: '{v}, comprimido',
    variantes: [
      'Losartana potássica 50 mg',
      'Hidroclorotiazida 25 mg',
      'Enalapril 10 mg',
      'Enalapril 20 mg',
      'Captopril 25 mg',
      'Anlodipino 5 mg',
      'Anlodipino 10 mg',
      'Atenolol 50 mg',
      'Propranolol 40 mg',
      'Furosemida 40 mg',
      'Espironolactona 25 mg',
      'Sinvastatina 20 mg',
      'Sinvastatina 40 mg',
      'Carvedilol 12,5 mg',
    ],
  }),
  F({
    grupo: 'medicamentos',
    subGrupo: 'Diabetes e endocrinologia',
    unidade: 'CP',
    nome: '{v}',
    variantes: [
      'Metformina 500 mg, comprimido',
      'Metformina 850 mg, comprimido',
      'Glibenclamida 5 mg, comprimido',
      'Gliclazida 30 mg, comprimido de liberação prolongada',
      'Levotiroxina sódica 25 mcg, comprimido',
      'Levotiroxina sódica 50 mcg, comprimido',
      'Levotiroxina sódica 100 mcg, comprimido',
      ['Insulina humana NPH 100 UI/ml, frasco-ampola 10 ml', 'FR'],
      ['Insulina humana regular 100 UI/ml, frasco-ampola 10 ml', 'FR'],
    ],
  }),
  F({
    grupo: 'medicamentos',
    subGrupo: 'Sistema nervoso',
    unidade: 'CP',
    nome: '{v}',
    variantes: [
      'Fluoxetina 20 mg, cápsula',
      'Sertralina 50 mg, comprimido',
      'Amitriptilina 25 mg, comprimido',
      'Diazepam 5 mg, comprimido',
      'Clonazepam 2 mg, comprimido',
      'Carbamazepina 200 mg, comprimido',
      'Fenobarbital 100 mg, comprimido',
      'Haloperidol 5 mg, comprimido',
    ],
  }),
  F({
    grupo: 'medicamentos',
    subGrupo: 'Outros medicamentos',
    unidade: 'CP',
    nome: '{v}',
    variantes: [
      'Omeprazol 20 mg, cápsula',
      'Loratadina 10 mg, comprimido',
      'Prednisona 5 mg, comprimido',
      'Prednisona 20 mg, comprimido',
      'Sulfato ferroso 40 mg de ferro, comprimido',
      'Ácido fólico 5 mg, comprimido',
      'Albendazol 400 mg, comprimido mastigável',
      'Metoclopramida 10 mg, comprimido',
      ['Loratadina 1 mg/ml, xarope, frasco 100 ml', 'FR'],
      ['Salbutamol 100 mcg/dose, aerossol, frasco 200 doses', 'FR'],
      ['Dexametasona 0,1% creme, bisnaga 10 g', 'TB'],
      ['Sais para reidratação oral, envelope 27,9 g', 'UN'],
    ],
  }),
  F({
    grupo: 'medicamentos',
    subGrupo: 'Soluções parenterais',
    unidade: 'BG',
    nome: '{v}',
    variantes: [
      'Cloreto de sódio 0,9%, solução injetável, bolsa 100 ml',
      'Cloreto de sódio 0,9%, solução injetável, bolsa 250 ml',
      'Cloreto de sódio 0,9%, solução injetável, bolsa 500 ml',
      'Glicose 5%, solução injetável, bolsa 500 ml',
      'Ringer com lactato, solução injetável, bolsa 500 ml',
    ],
  }),
  F({
    grupo: 'medicamentos',
    subGrupo: 'Material médico-hospitalar',
    unidade: 'UN',
    nome: '{v}',
    variantes: [
      'Seringa descartável 3 ml sem agulha',
      'Seringa descartável 5 ml sem agulha',
      'Seringa descartável 10 ml sem agulha',
      'Seringa para insulina 1 ml com agulha 8 x 0,3 mm',
      'Agulha hipodérmica descartável 25 x 7 mm',
      'Agulha hipodérmica descartável 40 x 12 mm',
      'Cateter intravenoso periférico nº 22',
      'Equipo macrogotas para soro',
      'Máscara cirúrgica tripla com elástico',
      ['Gaze hidrófila 7,5 x 7,5 cm 13 fios, pacote com 10', 'PCT'],
      ['Esparadrapo impermeável 10 cm x 4,5 m', 'RL'],
      ['Fita microporosa 25 mm x 10 m', 'RL'],
      ['Atadura de crepe 10 cm x 1,8 m, pacote com 12', 'PCT'],
      ['Algodão hidrófilo em rolo 500 g', 'PCT'],
      ['Coletor de material perfurocortante 7 L', 'UN'],
    ],
  }),

  // --- Informática ------------------------------------------------------------------------------
  F({
    grupo: 'informatica',
    subGrupo: 'Suprimentos de impressão',
    unidade: 'UN',
    nome: 'Toner {v}',
    variantes: [
      'compatível HP CF258A preto',
      'compatível HP CE285A preto',
      'compatível HP CF226A preto',
      'compatível Brother TN-1060 preto',
      'compatível Brother TN-2370 preto',
      'compatível Brother TN-3472 preto',
      'compatível Samsung MLT-D111S preto',
      'compatível Lexmark 50F4000 preto',
      'original HP W1105A preto',
      'original Brother TN-2370 preto',
    ],
  }),
  F({
    grupo: 'informatica',
    subGrupo: 'Suprimentos de impressão',
    unidade: 'UN',
    nome: '{v}',
    variantes: [
      'Cartucho de tinta HP 664 preto',
      'Cartucho de tinta HP 664 colorido',
      'Cartucho de tinta HP 667 preto',
      'Refil de tinta Epson T544 preto 65 ml',
      'Refil de tinta Epson T544 ciano 65 ml',
      'Refil de tinta Epson T544 magenta 65 ml',
      'Refil de tinta Epson T544 amarelo 65 ml',
      'Cilindro fotocondutor compatível Brother DR-2370',
    ],
  }),
  F({
    grupo: 'informatica',
    subGrupo: 'Periféricos',
    unidade: 'UN',
    nome: '{v}',
    variantes: [
      'Mouse óptico USB com fio, 1000 dpi',
      'Mouse óptico sem fio, receptor USB',
      'Teclado USB ABNT2 com fio',
      'Kit teclado e mouse sem fio ABNT2',
      'Headset USB com microfone',
      'Webcam Full HD 1080p com microfone',
      'Caixa de som USB 2.0 canais',
      'Leitor de código de barras USB',
      'Mouse pad com apoio de punho em gel',
    ],
  }),
  F({
    grupo: 'informatica',
    subGrupo: 'Armazenamento',
    unidade: 'UN',
    nome: '{v}',
    variantes: [
      'Pen drive USB 3.0 32 GB',
      'Pen drive USB 3.0 64 GB',
      'Pen drive USB 3.0 128 GB',
      'HD externo USB 3.0 1 TB',
      'HD externo USB 3.0 2 TB',
      'SSD SATA 2,5" 240 GB',
      'SSD SATA 2,5" 480 GB',
      'SSD NVMe M.2 1 TB',
      'Memória RAM DDR4 3200 MHz 8 GB',
      'Memória RAM DDR4 3200 MHz 16 GB',
    ],
  }),
  F({
    grupo: 'informatica',
    subGrupo: 'Redes e cabos',
    unidade: 'UN',
    nome: '{v}',
    variantes: [
      ['Cabo de rede U/UTP Cat6, caixa 305 m', 'CX'],
      ['Conector RJ45 Cat6, pacote com 100', 'PCT'],
      'Patch cord Cat6 1,5 m',
      'Patch cord Cat6 2,5 m',
      'Cabo HDMI 2.0 2 m',
      'Cabo HDMI 2.0 5 m',
      'Adaptador HDMI para VGA',
      'Filtro de linha 5 tomadas bivolt',
      'Extensão elétrica 3 tomadas 5 m',
    ],
  }),
  F({
    grupo: 'informatica',
    subGrupo: 'Equipamentos',
    tipoMaterial: 'permanente',
    unidade: 'UN',
    nome: '{v}',
    variantes: [
      'Computador desktop Core i5, 16 GB RAM, SSD 512 GB, Windows 11 Pro',
      'Computador desktop Core i7, 32 GB RAM, SSD 1 TB, Windows 11 Pro',
      'Notebook 14" Core i5, 16 GB RAM, SSD 512 GB',
      'Monitor LED 23,8" Full HD, HDMI e DisplayPort',
      'Monitor LED 27" Full HD, HDMI e DisplayPort',
      'Impressora multifuncional laser monocromática 40 ppm, duplex e rede',
      'Impressora térmica de etiquetas 203 dpi',
      'Scanner de mesa duplex 40 ppm com alimentador',
      'Nobreak 1200 VA bivolt',
      'Nobreak 2200 VA bivolt',
      'Estabilizador 1000 VA bivolt',
      'Switch 24 portas Gigabit gerenciável',
      'Roteador sem fio Wi-Fi 6 dual band',
      'Ponto de acesso Wi-Fi 6 PoE para teto',
      'Projetor multimídia 3600 lumens Full HD',
    ],
  }),

  // --- Serviços ---------------------------------------------------------------------------------
  F({
    grupo: 'servicos',
    subGrupo: 'Manutenção predial',
    tipo: 'servico',
    unidade: 'SV',
    nome: '{v}',
    variantes: [
      'Serviço de manutenção preventiva e corretiva de ar-condicionado split até 24.000 BTU',
      'Serviço de manutenção preventiva e corretiva de ar-condicionado split de 30.000 a 60.000 BTU',
      'Serviço de limpeza e desinfecção de caixa d’água até 5.000 L',
      ['Serviço de manutenção elétrica predial', 'H'],
      ['Serviço de manutenção hidráulica predial', 'H'],
      ['Serviço de pintura predial (parede interna, látex PVA)', 'M2'],
      ['Serviço de chaveiro (abertura e cópia de chaves)', 'SV'],
      ['Serviço de manutenção de elevadores', 'MES'],
    ],
  }),
  F({
    grupo: 'servicos',
    subGrupo: 'Conservação e limpeza',
    tipo: 'servico',
    unidade: 'MES',
    nome: '{v}',
    variantes: [
      'Serviço de limpeza e conservação predial, posto 44 h semanais',
      'Serviço de vigilância patrimonial armada 12 x 36 h diurno',
      'Serviço de vigilância patrimonial armada 12 x 36 h noturno',
      'Serviço de portaria 44 h semanais',
      ['Serviço de dedetização e desratização', 'M2'],
      ['Serviço de roçada e capina manual', 'M2'],
      ['Serviço de poda e remoção de árvores', 'UN'],
      ['Serviço de coleta, transporte e destinação de resíduos de saúde', 'KG'],
    ],
  }),
  F({
    grupo: 'servicos',
    subGrupo: 'Tecnologia da informação',
    tipo: 'servico',
    unidade: 'MES',
    nome: '{v}',
    variantes: [
      'Serviço de link de internet dedicado 100 Mbps',
      'Serviço de link de internet dedicado 300 Mbps',
      'Serviço de telefonia móvel, linha com pacote de dados 20 GB',
      'Serviço de outsourcing de impressão, franquia 10.000 páginas monocromáticas',
      ['Serviço de impressão excedente, página monocromática', 'UN'],
      ['Serviço de impressão excedente, página colorida', 'UN'],
      'Serviço de hospedagem de sítio eletrônico e e-mail institucional',
      ['Serviço de suporte técnico em informática', 'H'],
    ],
  }),
  F({
    grupo: 'servicos',
    subGrupo: 'Transporte e veículos',
    tipo: 'servico',
    unidade: 'DIA',
    nome: '{v}',
    variantes: [
      'Serviço de locação de veículo de passeio sem motorista',
      'Serviço de locação de van com motorista, 15 lugares',
      ['Serviço de transporte escolar (ônibus até 44 lugares)', 'KM'],
      ['Serviço de manutenção mecânica de veículos leves', 'H'],
      ['Serviço de lavagem completa de veículo leve', 'SV'],
      ['Serviço de guincho (reboque) de veículo leve', 'KM'],
    ],
  }),
  F({
    grupo: 'servicos',
    subGrupo: 'Eventos e comunicação',
    tipo: 'servico',
    unidade: 'SV',
    nome: '{v}',
    variantes: [
      ['Serviço de coffee break (por pessoa)', 'UN'],
      ['Serviço de fornecimento de refeição tipo marmitex 500 g', 'UN'],
      ['Serviço de sonorização de eventos com operador', 'DIA'],
      ['Serviço de intérprete de Libras', 'H'],
      ['Serviço de publicação de extrato em jornal de grande circulação (cm x coluna)', 'UN'],
      ['Serviço gráfico de impressão de folder A4 4 x 4 cores, 1.000 unidades', 'SV'],
      ['Serviço de recarga de extintor de pó ABC 6 kg', 'UN'],
      ['Serviço de recarga de extintor de CO2 6 kg', 'UN'],
      ['Serviço de recarga de extintor de água pressurizada 10 L', 'UN'],
      ['Serviço de confecção de carimbo', 'UN'],
    ],
  }),
];

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Every product of the demo catalogue (over 300), descriptions unique. */
export function catalogoDemo(): ProdutoDemo[] {
  const out: ProdutoDemo[] = [];
  const seen = new Set<string>();
  for (const family of FAMILIAS) {
    for (const variant of family.variantes) {
      const [v, unidade] = typeof variant === 'string' ? [variant, family.unidade] : variant;
      const descricao = capitalise(
        (family.nome.includes('{v}') ? family.nome.replace('{v}', v) : v ? `${family.nome}, ${v}` : family.nome)
          .replace(/\s+,/g, ',')
          .replace(/,\s*$/, '')
          .trim(),
      );
      const key = descricao.toLowerCase();
      if (seen.has(key)) throw new Error(`catálogo de demonstração: descrição repetida '${descricao}'`);
      seen.add(key);
      const tipo = family.tipo ?? 'material';
      out.push({
        descricao,
        tipo,
        grupo: family.grupo,
        subGrupo: family.subGrupo,
        unidade,
        tipoMaterial: tipo === 'servico' ? null : (family.tipoMaterial ?? 'consumo'),
        especificacao: family.especificacao ?? null,
      });
    }
  }
  return out;
}
