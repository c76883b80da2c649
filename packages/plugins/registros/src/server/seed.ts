// Demo registries of a município (Prefeitura demo entidade): what a purchasing department has on day one.
import type { SeedContext } from '@app/server-core';
import { cargos, centrosCusto, grupos, nucleoCentros, nucleosConsumo, ramosAtividade, subgrupos, tiposMaterial, tiposSolicitacao, unidades } from './tables.js';

type Cat = ['material' | 'servico', string, string] | null;
const cat = (c: Cat) => (c ? { catalogoTipo: c[0], catalogoCodigo: c[1], catalogoNome: c[2] } : {});

/** Grupos (CATMAT classe / CATSER grupo) and their sub-grupos. */
const GRUPOS: { codigo: string; nome: string; cat: Cat; sub: [string, string, Cat][] }[] = [
  {
    codigo: '01',
    nome: 'Material de Expediente',
    cat: ['material', '7510', 'Artigos de escritório'],
    sub: [
      ['01.01', 'Papelaria', ['material', '7530', 'Papelaria e formulários']],
      ['01.02', 'Artigos de escrita e correção', ['material', '7510', 'Artigos de escritório']],
      ['01.03', 'Organização e arquivo', ['material', '7520', 'Dispositivos e acessórios de escritório']],
    ],
  },
  {
    codigo: '02',
    nome: 'Gêneros Alimentícios',
    cat: null,
    sub: [
      ['02.01', 'Cereais e panificação', ['material', '8920', 'Produtos de panificação e cereais']],
      ['02.02', 'Açúcar e doces', ['material', '8925', 'Açúcar, confeitos e nozes']],
      ['02.03', 'Café, chá e achocolatados', ['material', '8955', 'Café, chá e cacau']],
      ['02.04', 'Óleos e gorduras', ['material', '8945', 'Óleos e gorduras alimentícias']],
      ['02.05', 'Hortifrutigranjeiros', ['material', '8915', 'Frutas e vegetais']],
      ['02.06', 'Carnes e pescados', ['material', '8905', 'Carnes, aves e peixes']],
    ],
  },
  {
    codigo: '03',
    nome: 'Material de Limpeza',
    cat: ['material', '7930', 'Produtos de limpeza e polimento'],
    sub: [
      ['03.01', 'Produtos químicos de limpeza', ['material', '7930', 'Produtos de limpeza e polimento']],
      ['03.02', 'Utensílios de limpeza', ['material', '7920', 'Vassouras, escovas, esfregões e esponjas']],
      ['03.03', 'Descartáveis e papéis sanitários', ['material', '8540', 'Papéis higiênicos e toalhas de papel']],
    ],
  },
  {
    codigo: '04',
    nome: 'Medicamentos',
    cat: ['material', '6505', 'Drogas e medicamentos'],
    sub: [
      ['04.01', 'Analgésicos e antitérmicos', ['material', '6505', 'Drogas e medicamentos']],
      ['04.02', 'Antibióticos', ['material', '6505', 'Drogas e medicamentos']],
      ['04.03', 'Anti-hipertensivos', ['material', '6505', 'Drogas e medicamentos']],
    ],
  },
  {
    codigo: '05',
    nome: 'Material Médico-Hospitalar',
    cat: ['material', '6515', 'Instrumentos e equipamentos médicos e cirúrgicos'],
    sub: [
      ['05.01', 'Luvas e máscaras', ['material', '6515', 'Instrumentos e equipamentos médicos e cirúrgicos']],
      ['05.02', 'Seringas e agulhas', ['material', '6515', 'Instrumentos e equipamentos médicos e cirúrgicos']],
    ],
  },
  {
    codigo: '06',
    nome: 'Material de Informática',
    cat: ['material', '7045', 'Suprimentos de informática'],
    sub: [
      ['06.01', 'Cartuchos e toners', ['material', '7045', 'Suprimentos de informática']],
      ['06.02', 'Periféricos', ['material', '7025', 'Equipamentos de entrada e saída de dados']],
    ],
  },
  {
    codigo: '07',
    nome: 'Combustíveis e Lubrificantes',
    cat: ['material', '9130', 'Combustíveis à base de petróleo'],
    sub: [
      ['07.01', 'Combustíveis', ['material', '9130', 'Combustíveis à base de petróleo']],
      ['07.02', 'Óleos lubrificantes', ['material', '9150', 'Óleos e graxas']],
    ],
  },
  {
    codigo: '08',
    nome: 'Material de Construção',
    cat: ['material', '5610', 'Materiais minerais de construção'],
    sub: [
      ['08.01', 'Cimento, areia e brita', ['material', '5610', 'Materiais minerais de construção']],
      ['08.02', 'Material elétrico', ['material', '5970', 'Isoladores e materiais elétricos']],
      ['08.03', 'Material hidráulico', ['material', '4730', 'Conexões para mangueiras e tubos']],
    ],
  },
  {
    codigo: '09',
    nome: 'Serviços de Manutenção',
    cat: ['servico', '871', 'Serviços de manutenção e reparação de produtos de metal, máquinas e equipamentos'],
    sub: [
      ['09.01', 'Manutenção de veículos', ['servico', '871', 'Serviços de manutenção e reparação de produtos de metal, máquinas e equipamentos']],
      ['09.02', 'Manutenção de ar-condicionado', ['servico', '871', 'Serviços de manutenção e reparação de produtos de metal, máquinas e equipamentos']],
      ['09.03', 'Manutenção predial', ['servico', '542', 'Serviços gerais de construção de obras de engenharia civil']],
    ],
  },
  {
    codigo: '10',
    nome: 'Serviços de Limpeza e Conservação',
    cat: ['servico', '853', 'Serviços de limpeza'],
    sub: [['10.01', 'Limpeza de prédios públicos', ['servico', '853', 'Serviços de limpeza']]],
  },
];

const UNIDADES: [string, string, boolean][] = [
  ['UN', 'Unidade', false],
  ['CX', 'Caixa', false],
  ['PCT', 'Pacote', false],
  ['RESMA', 'Resma (500 folhas)', false],
  ['KG', 'Quilograma', true],
  ['G', 'Grama', true],
  ['L', 'Litro', true],
  ['ML', 'Mililitro', true],
  ['M', 'Metro', true],
  ['M2', 'Metro quadrado', true],
  ['M3', 'Metro cúbico', true],
  ['FR', 'Frasco', false],
  ['CP', 'Comprimido', false],
  ['AMP', 'Ampola', false],
  ['PAR', 'Par', false],
  ['DZ', 'Dúzia', false],
  ['GL', 'Galão', false],
  ['SC', 'Saco', false],
  ['TB', 'Tubo', false],
  ['H', 'Hora', true],
  ['SV', 'Serviço', false],
];

const TIPOS_MATERIAL: [string, string][] = [
  ['Material de consumo', 'Perde a identidade física ou se esgota em até dois anos de uso (Portaria STN 448/2002).'],
  ['Material permanente', 'Durabilidade superior a dois anos; incorporado ao patrimônio.'],
  ['Material de distribuição gratuita', 'Adquirido para ser entregue à população (kits escolares, cestas básicas).'],
  ['Bens para estoque', 'Controlado pelo almoxarifado antes do consumo.'],
];

/** Centros de custo: secretarias and their departments (codigo, nome, responsável). */
const CENTROS: [string, string, string][] = [
  ['01', 'Secretaria Municipal de Administração', 'Carlos Alberto Ferreira'],
  ['01.01', 'Departamento de Compras e Licitações', 'Juliana Martins Rocha'],
  ['01.02', 'Departamento de Recursos Humanos', 'Roberto Carlos Nunes'],
  ['01.03', 'Almoxarifado Central', 'Antônio José da Silva'],
  ['02', 'Secretaria Municipal de Educação', 'Maria Aparecida Santos'],
  ['02.01', 'Ensino Fundamental', 'Patrícia Gomes Ribeiro'],
  ['02.02', 'Educação Infantil', 'Luciana Alves Pereira'],
  ['02.03', 'Alimentação Escolar', 'Fernanda Costa Lima'],
  ['02.04', 'Transporte Escolar', 'José Ricardo Moreira'],
  ['03', 'Secretaria Municipal de Saúde', 'Dr. Paulo Henrique Souza'],
  ['03.01', 'Atenção Básica', 'Ana Paula Carvalho'],
  ['03.02', 'Assistência Farmacêutica', 'Renata Oliveira Barros'],
  ['03.03', 'Vigilância Sanitária', 'Marcos Vinícius Teixeira'],
  ['03.04', 'Pronto Atendimento Municipal', 'Dra. Cláudia Regina Faria'],
  ['04', 'Secretaria Municipal de Obras e Serviços Públicos', 'Eduardo Luiz Campos'],
  ['04.01', 'Manutenção de Vias Públicas', 'Sérgio Antunes Prado'],
  ['04.02', 'Iluminação Pública', 'Wagner Batista Lopes'],
  ['04.03', 'Frota Municipal', 'Geraldo Magela Dias'],
  ['05', 'Secretaria Municipal de Assistência Social', 'Sandra Regina Cardoso'],
  ['05.01', 'Centro de Referência de Assistência Social (CRAS)', 'Débora Cristina Mello'],
  ['05.02', 'Centro de Referência Especializado de Assistência Social (CREAS)', 'Rafael Augusto Pinto'],
  ['05.03', 'Conselho Tutelar', 'Tatiane Soares Vieira'],
];

const NUCLEOS: [string, string, string[]][] = [
  ['Núcleo Administrativo', 'Consumo de expediente e limpeza dos prédios da administração.', ['01.01', '01.02', '01.03']],
  ['Núcleo Escolar', 'Unidades escolares e alimentação escolar.', ['02.01', '02.02', '02.03']],
  ['Núcleo de Saúde', 'Unidades de saúde e farmácia municipal.', ['03.01', '03.02', '03.04']],
  ['Núcleo de Obras', 'Almoxarifado de obras, vias e iluminação.', ['04.01', '04.02', '04.03']],
];

const RAMOS: [string, string][] = [
  ['Comércio varejista de artigos de papelaria', '4761003'],
  ['Comércio atacadista de produtos alimentícios em geral', '4639701'],
  ['Comércio atacadista de medicamentos e drogas de uso humano', '4644301'],
  ['Comércio atacadista de produtos de higiene, limpeza e conservação domiciliar', '4649408'],
  ['Comércio varejista de materiais de construção em geral', '4744099'],
  ['Comércio atacadista de equipamentos de informática', '4651601'],
  ['Comércio varejista de combustíveis para veículos automotores', '4731800'],
  ['Serviços de manutenção e reparação mecânica de veículos automotores', '4520001'],
  ['Limpeza em prédios e em domicílios', '8121400'],
  ['Construção de edifícios', '4120400'],
];

const TIPOS_SOLICITACAO: [string, string, number][] = [
  ['Aquisição de material de consumo', 'Compra de materiais que se esgotam com o uso.', 30],
  ['Aquisição de material permanente', 'Compra de bens patrimoniáveis.', 45],
  ['Contratação de serviço', 'Serviços comuns, contínuos ou não.', 30],
  ['Obra ou serviço de engenharia', 'Exige projeto básico e ART/RRT.', 60],
  ['Registro de preços', 'Adesão ou formação de ata de registro de preços.', 90],
  ['Emergencial', 'Situação emergencial ou calamidade (Lei 14.133, art. 75, VIII).', 5],
];

const CARGOS: [string, string][] = [
  ['Prefeito Municipal', 'Autoridade máxima do Poder Executivo municipal.'],
  ['Secretário Municipal', 'Ordenador de despesa da secretaria.'],
  ['Diretor de Departamento', ''],
  ['Agente de Contratação', 'Conduz a licitação (Lei 14.133, art. 8º).'],
  ['Pregoeiro', 'Agente de contratação na modalidade pregão.'],
  ['Membro da Comissão de Contratação', ''],
  ['Gestor de Contrato', 'Coordena a gestão do contrato (Lei 14.133, art. 117).'],
  ['Fiscal de Contrato', 'Acompanha e fiscaliza a execução do contrato.'],
  ['Assistente Administrativo', ''],
  ['Almoxarife', 'Recebe, guarda e distribui os materiais.'],
];

/** Demo registries of the Prefeitura (one audit row per table, as done by the system). */
export async function seedRegistros(ctx: SeedContext): Promise<void> {
  const entidadeId = ctx.entidades.prefeitura.id;
  await ctx.mutate(async (tx, audit) => {
    const counts: Record<string, number> = {};
    for (const g of GRUPOS) {
      const [grupo] = await tx
        .insert(grupos)
        .values({ entidadeId, codigo: g.codigo, nome: g.nome, ...cat(g.cat) })
        .returning({ id: grupos.id });
      await tx.insert(subgrupos).values(g.sub.map(([codigo, nome, c]) => ({ entidadeId, grupoId: grupo!.id, codigo, nome, ...cat(c) })));
      counts.subgrupos = (counts.subgrupos ?? 0) + g.sub.length;
    }
    counts.grupos = GRUPOS.length;
    await tx.insert(unidades).values(UNIDADES.map(([sigla, descricao, fracionavel]) => ({ entidadeId, sigla, descricao, fracionavel })));
    counts.unidades = UNIDADES.length;
    await tx.insert(tiposMaterial).values(TIPOS_MATERIAL.map(([nome, descricao]) => ({ entidadeId, nome, descricao })));
    counts.tiposMaterial = TIPOS_MATERIAL.length;

    const centroIds = new Map<string, string>();
    for (const [codigo, nome, responsavelNome] of CENTROS) {
      const parent = codigo.includes('.') ? centroIds.get(codigo.split('.')[0]!) : undefined;
      const [row] = await tx
        .insert(centrosCusto)
        .values({ entidadeId, codigo, nome, responsavelNome, parentId: parent ?? null })
        .returning({ id: centrosCusto.id });
      centroIds.set(codigo, row!.id);
    }
    counts.centrosCusto = CENTROS.length;
    for (const [nome, descricao, codigos] of NUCLEOS) {
      const [row] = await tx.insert(nucleosConsumo).values({ entidadeId, nome, descricao }).returning({ id: nucleosConsumo.id });
      await tx.insert(nucleoCentros).values(codigos.map((c) => ({ nucleoId: row!.id, centroId: centroIds.get(c)!, entidadeId })));
    }
    counts.nucleosConsumo = NUCLEOS.length;
    await tx.insert(ramosAtividade).values(RAMOS.map(([nome, cnae]) => ({ entidadeId, nome, cnae })));
    counts.ramosAtividade = RAMOS.length;
    await tx.insert(tiposSolicitacao).values(TIPOS_SOLICITACAO.map(([nome, descricao, prazoDias]) => ({ entidadeId, nome, descricao, prazoDias })));
    counts.tiposSolicitacao = TIPOS_SOLICITACAO.length;
    await tx.insert(cargos).values(CARGOS.map(([nome, descricao]) => ({ entidadeId, nome, descricao: descricao || null })));
    counts.cargos = CARGOS.length;
    audit({ acao: 'dados_demonstracao', entidadeId, depois: counts });
  });
}
