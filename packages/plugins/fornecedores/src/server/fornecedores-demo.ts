// Demo suppliers of a município: fictitious companies with VALID CNPJs (check digits computed from
// the bases below, three of them alphanumeric as issued from July 2026), two pessoas físicas with
// valid CPFs, addresses in real municípios, contacts (e-mails on example.com, reserved for examples)
// and ramos de atividade (matched by name to registros' ramos by the seed).
import { cnpjCheckDigits, comprasBusca, cpfCheckDigits } from '@app/br';
import type { Situacao } from '../shared/index.js';

/** Ramos the demo uses; the seed finds each in registros' ramos by keywords of the name, or creates it. */
export type RamoDemo =
  | 'expediente'
  | 'limpeza'
  | 'alimentos'
  | 'medicamentos'
  | 'hospitalar'
  | 'informatica'
  | 'arCondicionado'
  | 'construcao'
  | 'veiculos'
  | 'vigilancia'
  | 'conservacao'
  | 'transporte'
  | 'locacao'
  | 'grafica'
  | 'servicos';

/** Keywords searched (accent- and case-insensitive) in the names of registros' ramos; [nome, CNAE] to create when none matches. */
export const RAMOS_DEMO: Record<RamoDemo, { keywords: string[]; criar: [nome: string, cnae: string] }> = {
  expediente: { keywords: ['papelaria'], criar: ['Comércio varejista de artigos de papelaria', '4761003'] },
  limpeza: {
    keywords: ['higiene, limpeza', 'produtos de limpeza'],
    criar: ['Comércio atacadista de produtos de higiene, limpeza e conservação domiciliar', '4649408'],
  },
  alimentos: { keywords: ['produtos alimenticios', 'aliment'], criar: ['Comércio atacadista de produtos alimentícios em geral', '4639701'] },
  medicamentos: { keywords: ['medicamentos'], criar: ['Comércio atacadista de medicamentos e drogas de uso humano', '4644301'] },
  hospitalar: {
    keywords: ['hospitalar'],
    criar: ['Comércio atacadista de instrumentos e materiais para uso médico, cirúrgico, hospitalar e de laboratórios', '4645101'],
  },
  informatica: { keywords: ['informatica'], criar: ['Comércio atacadista de equipamentos de informática', '4651601'] },
  arCondicionado: {
    keywords: ['ar condicionado', 'ar-condicionado'],
    criar: ['Instalação e manutenção de sistemas centrais de ar condicionado, de ventilação e refrigeração', '4322302'],
  },
  construcao: { keywords: ['materiais de construcao'], criar: ['Comércio varejista de materiais de construção em geral', '4744099'] },
  veiculos: { keywords: ['mecanica de veiculos'], criar: ['Serviços de manutenção e reparação mecânica de veículos automotores', '4520001'] },
  vigilancia: { keywords: ['vigilancia'], criar: ['Atividades de vigilância e segurança privada', '8011101'] },
  conservacao: { keywords: ['limpeza em predios'], criar: ['Limpeza em prédios e em domicílios', '8121400'] },
  transporte: {
    keywords: ['transporte rodoviario coletivo'],
    criar: ['Transporte rodoviário coletivo de passageiros, sob regime de fretamento, municipal', '4929901'],
  },
  locacao: { keywords: ['locacao de automoveis'], criar: ['Locação de automóveis sem condutor', '7711000'] },
  grafica: { keywords: ['impressao de material'], criar: ['Impressão de material para uso publicitário', '1813001'] },
  servicos: { keywords: ['outras atividades de servicos'], criar: ['Outras atividades de serviços prestados principalmente às empresas', '8299799'] },
};

export interface FornecedorDemo {
  documento: string;
  razaoSocial: string;
  nomeFantasia: string | null;
  logradouro: string;
  numero: string | null;
  complemento: string | null;
  bairro: string | null;
  cep: string;
  municipio: string;
  uf: string;
  contatos: { nome: string; email: string | null; telefone: string | null }[];
  ramos: RamoDemo[];
  situacao: Situacao;
  impedimentoMotivo: string | null;
  impedimentoDe: string | null;
  impedimentoAte: string | null;
}

type Row = [
  base: string,
  razaoSocial: string,
  nomeFantasia: string | null,
  endereco: [logradouro: string, numero: string | null, complemento: string | null, bairro: string, cep: string, municipio: string, uf: string],
  contato: [nome: string, telefone: string],
  ramos: RamoDemo[],
];

// 12-character CNPJ bases (8-character root + 4-digit branch); the check digits are computed.
const EMPRESAS: Row[] = [
  [
    '184736250001',
    'Papelaria Aliança Comércio de Materiais de Escritório Ltda',
    'Papelaria Aliança',
    ['Rua Barão de Jundiaí', '1120', null, 'Centro', '13201010', 'Jundiaí', 'SP'],
    ['Mariana Lopes', '1145213300'],
    ['expediente'],
  ],
  [
    '273615480001',
    'Distribuidora Paulista de Papéis e Suprimentos Ltda',
    'DPP Suprimentos',
    ['Avenida Jundiaí', '1500', 'Galpão 4', 'Anhangabaú', '13208053', 'Jundiaí', 'SP'],
    ['Roberto Carvalho', '1148062211'],
    ['expediente', 'informatica'],
  ],
  [
    '315062970001',
    'Comercial Limpamais Produtos de Higiene e Limpeza Ltda',
    'Limpamais',
    ['Rua do Rosário', '455', null, 'Centro', '13201016', 'Jundiaí', 'SP'],
    ['Cláudia Ferreira', '1145870022'],
    ['limpeza'],
  ],
  [
    '421987360001',
    'Higienix Distribuidora de Descartáveis Eireli',
    'Higienix',
    ['Avenida Antônio Frederico Ozanan', '6000', 'Bloco B', 'Vila Rio Branco', '13215010', 'Jundiaí', 'SP'],
    ['Fábio Nascimento', '1139646500'],
    ['limpeza', 'hospitalar'],
  ],
  [
    '093847120001',
    'Cerealista Boa Safra Comércio de Alimentos Ltda',
    'Boa Safra',
    ['Rua Marechal Deodoro da Fonseca', '820', null, 'Centro', '13010001', 'Campinas', 'SP'],
    ['Luciana Pires', '1932319900'],
    ['alimentos'],
  ],
  [
    '562384190001',
    'Hortifruti Vale Verde Comércio de Frutas e Verduras Ltda',
    'Vale Verde Hortifruti',
    ['Rodovia Dom Pedro I', 's/n', 'Box 112 - Ceasa', 'Jardim Santa Mônica', '13082902', 'Campinas', 'SP'],
    ['Antônio Batista', '1937462040'],
    ['alimentos'],
  ],
  [
    '648201530001',
    'Frigorífico e Distribuidora Serra Azul Ltda',
    'Serra Azul Carnes',
    ['Avenida Independência', '3200', null, 'Jardim Pacaembu', '13218000', 'Jundiaí', 'SP'],
    ['Paulo Henrique Dias', '1145262700'],
    ['alimentos'],
  ],
  [
    '710492860001',
    'Laticínios Campo Alegre Indústria e Comércio Ltda',
    'Campo Alegre',
    ['Rua Sete de Setembro', '145', null, 'Centro', '12900000', 'Bragança Paulista', 'SP'],
    ['Renata Moura', '1140332100'],
    ['alimentos'],
  ],
  [
    '837462510001',
    'Medfarma Distribuidora de Medicamentos Ltda',
    'Medfarma',
    ['Avenida Brasil', '2750', null, 'Jardim Chapadão', '13070178', 'Campinas', 'SP'],
    ['Dr. Marcelo Tavares', '1932728800'],
    ['medicamentos'],
  ],
  [
    '904518370001',
    'Vitalis Comércio de Produtos Hospitalares Ltda',
    'Vitalis Hospitalar',
    ['Rua Padre Eustáquio', '1890', 'Sala 402', 'Padre Eustáquio', '30720100', 'Belo Horizonte', 'MG'],
    ['Simone Araújo', '3132149000'],
    ['hospitalar', 'medicamentos'],
  ],
  [
    '126384950001',
    'Pharmasul Distribuidora Farmacêutica S.A.',
    'Pharmasul',
    ['Avenida Assis Brasil', '4320', null, 'Jardim São Pedro', '91010003', 'Porto Alegre', 'RS'],
    ['Gustavo Becker', '5133617700'],
    ['medicamentos', 'hospitalar'],
  ],
  [
    '239475180001',
    'Cirúrgica Horizonte Material Médico Ltda',
    'Cirúrgica Horizonte',
    ['Rua Padre Anchieta', '620', null, 'Centro', '80410030', 'Curitiba', 'PR'],
    ['Tatiane Kowalski', '4132248800'],
    ['hospitalar'],
  ],
  [
    '351862740001',
    'Tecnodata Soluções em Informática Ltda',
    'Tecnodata',
    ['Avenida Paulista', '1842', 'Conjunto 155', 'Bela Vista', '01310200', 'São Paulo', 'SP'],
    ['Rafael Yamamoto', '1131428900'],
    ['informatica'],
  ],
  [
    '468213950001',
    'Infoprint Suprimentos para Impressão Ltda',
    'Infoprint',
    ['Rua Dr. Cavalcanti', '233', null, 'Centro', '13201003', 'Jundiaí', 'SP'],
    ['Patrícia Gomes', '1145221234'],
    ['informatica', 'expediente'],
  ],
  [
    '579320460001',
    'Redes Conecta Comércio de Equipamentos de Rede Ltda',
    'Conecta Redes',
    ['Avenida Anhanguera', '5400', 'Sala 7', 'Setor Central', '74043011', 'Goiânia', 'GO'],
    ['Diego Marques', '6232125500'],
    ['informatica'],
  ],
  [
    '681439270001',
    'Microtech Comércio de Computadores e Periféricos Ltda',
    'Microtech',
    ['Rua XV de Novembro', '980', null, 'Centro', '80020310', 'Curitiba', 'PR'],
    ['Eduardo Schmidt', '4130245511'],
    ['informatica'],
  ],
  [
    '792564180001',
    'Clima Frio Instalação e Manutenção de Ar-Condicionado Ltda',
    'Clima Frio',
    ['Rua Anchieta', '310', null, 'Centro', '13201804', 'Jundiaí', 'SP'],
    ['Sérgio Oliveira', '1145887766'],
    ['arCondicionado'],
  ],
  [
    '803675290001',
    'Predial Forte Serviços de Manutenção Ltda',
    'Predial Forte',
    ['Avenida Nove de Julho', '3050', null, 'Anhangabaú', '13208056', 'Jundiaí', 'SP'],
    ['Márcio Rocha', '1145214488'],
    ['construcao', 'servicos'],
  ],
  [
    '914786300001',
    'Guardião Segurança e Vigilância Patrimonial Ltda',
    'Guardião Segurança',
    ['Avenida Francisco Glicério', '1046', null, 'Centro', '13012100', 'Campinas', 'SP'],
    ['Cel. Nelson Prado', '1932345566'],
    ['vigilancia'],
  ],
  [
    '025897410001',
    'Conservadora Brilho Total Serviços Terceirizados Ltda',
    'Brilho Total',
    ['Rua Voluntários da Pátria', '2100', null, 'Santana', '02011200', 'São Paulo', 'SP'],
    ['Elaine Cristina Santos', '1129590010'],
    ['conservacao'],
  ],
  [
    '136908520001',
    'Rota Certa Transportes e Locação de Veículos Ltda',
    'Rota Certa',
    ['Rodovia Anhanguera', 'km 58', null, 'Distrito Industrial', '13213180', 'Jundiaí', 'SP'],
    ['Wagner Lima', '1148158000'],
    ['transporte', 'locacao'],
  ],
  [
    '247019630001',
    'Auto Mecânica Jundiaí Ltda',
    'Auto Mecânica Jundiaí',
    ['Rua Rangel Pestana', '1480', null, 'Vila Arens', '13202020', 'Jundiaí', 'SP'],
    ['José Aparecido Ramos', '1145834411'],
    ['veiculos'],
  ],
  [
    '358120740001',
    'Gráfica e Editora Ponto Final Ltda',
    'Gráfica Ponto Final',
    ['Rua Conde de Monte Cristo', '540', null, 'Vila Arens', '13201040', 'Jundiaí', 'SP'],
    ['Beatriz Almeida', '1145215050'],
    ['grafica', 'expediente'],
  ],
  [
    '469231850001',
    'Nordeste Alimentos e Cereais Ltda',
    'Nordeste Cereais',
    ['Avenida Sul', '2020', null, 'Afogados', '50770000', 'Recife', 'PE'],
    ['Severino Cavalcanti', '8134283300'],
    ['alimentos'],
  ],
  [
    '570342960001',
    'Baía Distribuição de Materiais de Limpeza Ltda',
    'Baía Limpeza',
    ['Avenida Tancredo Neves', '1632', 'Sala 1201', 'Caminho das Árvores', '41820021', 'Salvador', 'BA'],
    ['Ivete Souza', '7132712200'],
    ['limpeza'],
  ],
  [
    '681453070001',
    'Escritório Total Comércio de Móveis e Material Ltda',
    'Escritório Total',
    ['Avenida Rio Branco', '156', 'Loja A', 'Centro', '20040003', 'Rio de Janeiro', 'RJ'],
    ['Carla Menezes', '2122625400'],
    ['expediente'],
  ],
  [
    '792564180002',
    'Clima Frio Instalação e Manutenção de Ar-Condicionado Ltda (filial Campinas)',
    'Clima Frio Campinas',
    ['Avenida Orosimbo Maia', '2300', null, 'Cambuí', '13024045', 'Campinas', 'SP'],
    ['Sérgio Oliveira', '1932551200'],
    ['arCondicionado'],
  ],
  [
    '803764180001',
    'Itupeva Comércio de Hortifrutigranjeiros Ltda',
    'Sítio Bom Jesus',
    ['Estrada Municipal do Guacuri', '1750', null, 'Guacuri', '13295000', 'Itupeva', 'SP'],
    ['Benedito Cardoso', '1145913311'],
    ['alimentos'],
  ],
  [
    '914875290001',
    'Várzea Paulista Material Elétrico e Hidráulico Ltda',
    'Casa do Eletricista',
    ['Avenida Duque de Caxias', '890', null, 'Centro', '13220010', 'Várzea Paulista', 'SP'],
    ['Rogério Teixeira', '1145962200'],
    ['construcao'],
  ],
  [
    '036986300001',
    'Louveira Segurança Eletrônica Ltda',
    'LS Monitoramento',
    ['Rua Armando Steck', '200', null, 'Centro', '13290000', 'Louveira', 'SP'],
    ['André Vieira', '1938787000'],
    ['vigilancia', 'informatica'],
  ],
  [
    '148097410001',
    'Sorocaba Suprimentos Hospitalares Ltda',
    'Sorosupri',
    ['Avenida General Carneiro', '1200', null, 'Vila Lucy', '18043003', 'Sorocaba', 'SP'],
    ['Juliana Prestes', '1532245566'],
    ['hospitalar', 'limpeza'],
  ],
  [
    '259108520001',
    'Ribeirão Comércio de Gêneros Alimentícios Ltda',
    'Ribeirão Alimentos',
    ['Avenida Presidente Vargas', '2121', null, 'Jardim América', '14020260', 'Ribeirão Preto', 'SP'],
    ['Fernanda Queiroz', '1636100900'],
    ['alimentos'],
  ],
  // alphanumeric CNPJs (IN RFB 2.229/2024): root and branch may have letters
  [
    '12ABC3450001',
    'Nova Era Tecnologia e Serviços Digitais Ltda',
    'Nova Era Tech',
    ['Rua Líbero Badaró', '425', 'Andar 12', 'Centro', '01009000', 'São Paulo', 'SP'],
    ['Larissa Okada', '1130350800'],
    ['informatica', 'servicos'],
  ],
  [
    'A1B2C3D40001',
    'Limpa Já Serviços de Conservação Ltda',
    'Limpa Já',
    ['Rua Retiro', '1350', null, 'Vila Vioto', '13209201', 'Jundiaí', 'SP'],
    ['Rosângela Freitas', '1145272525'],
    ['conservacao', 'limpeza'],
  ],
  [
    '9Z8Y7X6W0001',
    'Bem Nutrir Alimentação Coletiva Ltda',
    'Bem Nutrir',
    ['Avenida Andrade Neves', '707', null, 'Centro', '13013161', 'Campinas', 'SP'],
    ['Heloísa Martins', '1932361818'],
    ['alimentos', 'servicos'],
  ],
];

// Pessoas físicas (MEI / autônomos): 9-digit CPF bases; the check digits are computed.
const PESSOAS: Row[] = [
  [
    '385172640',
    'João Batista da Silva',
    'João Chaveiro',
    ['Rua Petronilha Antunes', '77', null, 'Centro', '13201075', 'Jundiaí', 'SP'],
    ['João Batista da Silva', '11987654321'],
    ['servicos'],
  ],
  [
    '529846130',
    'Maria Aparecida Gonçalves',
    'Intérprete de Libras Maria Gonçalves',
    ['Rua Senador Fonseca', '310', 'Apto 42', 'Centro', '13201017', 'Jundiaí', 'SP'],
    ['Maria Aparecida Gonçalves', '11991234567'],
    ['servicos'],
  ],
];

const slug = (text: string) =>
  comprasBusca(text)
    .replace(/[^a-z0-9]+/g, '')
    .slice(0, 24);

function toFornecedor([, razaoSocial, nomeFantasia, endereco, contato, ramos]: Row, documento: string): FornecedorDemo {
  const [logradouro, numero, complemento, bairro, cep, municipio, uf] = endereco;
  const dominio = `${slug(nomeFantasia ?? razaoSocial)}.example.com`;
  return {
    documento,
    razaoSocial,
    nomeFantasia,
    logradouro,
    numero,
    complemento,
    bairro,
    cep,
    municipio,
    uf,
    contatos: [
      { nome: contato[0], email: `${slug(contato[0].split(' ')[0] ?? 'contato')}@${dominio}`, telefone: contato[1] },
      { nome: 'Departamento de licitações', email: `licitacoes@${dominio}`, telefone: null },
    ],
    ramos,
    situacao: 'ativo',
    impedimentoMotivo: null,
    impedimentoDe: null,
    impedimentoAte: null,
  };
}

/** 37 suppliers: 35 companies (3 with alphanumeric CNPJs) and 2 pessoas físicas; one inativo, one impedido. */
export function fornecedoresDemo(): FornecedorDemo[] {
  const list = [
    ...EMPRESAS.map((row) => toFornecedor(row, `${row[0]}${cnpjCheckDigits(row[0])}`)),
    ...PESSOAS.map((row) => toFornecedor(row, `${row[0]}${cpfCheckDigits(row[0])}`)),
  ];
  const inativo = list.find((f) => f.nomeFantasia === 'Escritório Total');
  if (inativo) inativo.situacao = 'inativo';
  const impedido = list.find((f) => f.nomeFantasia === 'Nordeste Cereais');
  if (impedido) {
    impedido.situacao = 'impedido';
    impedido.impedimentoMotivo =
      'Suspensão temporária de participação em licitação (Lei 14.133/2021, art. 156, III) por atraso reiterado na entrega de gêneros alimentícios.';
    impedido.impedimentoDe = '2026-03-01';
    impedido.impedimentoAte = '2027-02-28';
  }
  return list;
}
