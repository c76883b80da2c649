import { expect, it } from 'vitest';
import { createAdmin } from '../src/index.js';
import { describeEachDatabase } from '../src/testing.js';

describeEachDatabase('create-admin and CNPJ (@app/br)', { seed: false }, (t) => {
  it('accepts an alphanumeric CNPJ (2026), stored upper case without mask', async () => {
    const created = await createAdmin(t.server.database, [], {
      login: 'chefe',
      nome: 'Chefe de Compras',
      email: 'chefe@exemplo.gov.br',
      senha: 'cavalo correto bateria grampo',
      entidadeNome: 'Autarquia de Exemplo',
      entidadeCnpj: '12.abc.345/01de-35',
    });
    const [row] = await t.server.sql<{ cnpj: string }>('SELECT cnpj FROM entidades WHERE id = $1', [created.entidadeId]);
    expect(row!.cnpj).toBe('12ABC34501DE35');
    await t.server.signIn('chefe', 'cavalo correto bateria grampo');
  });

  it('refuses a CNPJ with wrong check digits, numeric or alphanumeric', async () => {
    for (const cnpj of ['11.222.333/0001-82', '12.ABC.345/01DE-36', '11.111.111/1111-11']) {
      await expect(
        createAdmin(t.server.database, [], {
          login: `outro${cnpj.length}`,
          nome: 'Outro',
          email: 'outro@exemplo.gov.br',
          senha: 'cavalo correto bateria grampo',
          entidadeNome: 'Outra',
          entidadeCnpj: cnpj,
        }),
        cnpj,
      ).rejects.toThrow(`CNPJ ${cnpj} is not valid`);
    }
  });
});
