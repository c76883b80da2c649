// Issue 23 (cold load of a list's address): a route asks for the plugin's page module and the kit's
// chunk that page renders at the same time, not the second after the first has arrived.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { documentRoutes, resourceRoutes } from '../src/resource/routes';

const asked = vi.hoisted(() => [] as string[]);
// each kit chunk records when it is first asked for (then loads as usual; a chunk loads once per file,
// so the resource test, whose chunks the document pages also import, runs first)
vi.mock('../src/resource/ListPage', async (original) => (asked.push('ListPage'), await original()));
vi.mock('../src/resource/FormPage', async (original) => (asked.push('FormPage'), await original()));
vi.mock('../src/resource/documents/ListDocument', async (original) => (asked.push('ListDocument'), await original()));
vi.mock('../src/resource/documents/EditDocument', async (original) => (asked.push('EditDocument'), await original()));
vi.mock('../src/resource/documents/DuplicatePage', async (original) => (asked.push('DuplicatePage'), await original()));

const titles = { title: 'Memorandos', newTitle: 'Novo memorando', editTitle: 'Editar memorando' };
const List = () => null;
const New = () => null;
const Edit = () => null;
const Duplicate = () => null;

/** A page module that arrives only when `arrive()` is called. */
function slowModule<M>(pages: M) {
  let arrive = () => {};
  const module = new Promise<{ default: M }>((resolve) => {
    arrive = () => resolve({ default: pages });
  });
  return { load: () => module, arrive: () => arrive() };
}

describe("a route's load", () => {
  afterEach(() => {
    asked.length = 0;
  });

  it("asks for a resource's list and form chunks while its page module is still on the way", async () => {
    const page = slowModule({ List, New, Edit });
    const [list, novo] = resourceRoutes(titles, page.load as never);
    const loads = [list!.load(), novo!.load()];
    await vi.waitFor(() => expect(asked).toEqual(expect.arrayContaining(['ListPage', 'FormPage'])));
    page.arrive();
    expect((await Promise.all(loads)).map((m) => m.default)).toEqual([List, New]);
  });

  it('asks for the kit list, form and duplicate chunks of a document the same way', async () => {
    const page = slowModule({ List, New, Edit, Duplicate });
    const routes = documentRoutes(titles, page.load as never);
    const byPath = Object.fromEntries(routes.map((r) => [r.path, r]));
    const loads = [byPath['/']!.load(), byPath['/edit/:id']!.load(), byPath['/duplicar/:id']!.load()];
    await vi.waitFor(() => expect(asked).toEqual(expect.arrayContaining(['ListDocument', 'EditDocument', 'DuplicatePage'])));
    page.arrive();
    expect((await Promise.all(loads)).map((m) => m.default)).toEqual([List, Edit, Duplicate]);
  });

  it('fails when the page module fails, as before', async () => {
    const routes = resourceRoutes(titles, () => Promise.reject(new Error('chunk perdido')));
    await expect(routes[0]!.load()).rejects.toThrow('chunk perdido');
  });
});
