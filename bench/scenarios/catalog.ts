// Hot catalog reads: the listing, a product detail and its configurator (es market, Spanish).
import type { BenchScenario } from './types.js';

export const scenario: BenchScenario = {
  name: 'catalog',
  async targets(baseUrl) {
    const listing = (await (await fetch(`${baseUrl}/api/es/es/products`)).json()) as { data: { id: number }[] };
    const id = listing.data[0]?.id;
    if (!id) throw new Error('the demo catalog has no product in es/es');
    return [
      { name: 'catalog: listing', path: '/api/es/es/products' },
      { name: 'catalog: detail', path: `/api/es/es/products/${id}` },
      { name: 'catalog: configurator', path: `/api/es/es/products/${id}/configurator` },
    ];
  },
};
