import { isDomainError } from '../../platform/errors/domain-error';
import { parseShoppingData, parseShoppingText, ShoppingStep } from './shopping-request';

describe('parseShoppingText', () => {
  const cases: [string, ShoppingStep[]][] = [
    [
      'find me a blue mug and add two to my cart',
      [
        { action: 'search', query: 'blue mug' },
        { action: 'add_to_cart', item: { kind: 'current' }, quantity: 2 },
      ],
    ],
    ['Do you have any blue and white mugs?', [{ action: 'search', query: 'blue white mugs' }]],
    [
      'add 3 green tea leaves to my basket',
      [{ action: 'add_to_cart', item: { kind: 'query', query: 'green tea leaves' }, quantity: 3 }],
    ],
    ['Add it to my cart', [{ action: 'add_to_cart', item: { kind: 'current' }, quantity: 1 }]],
    ['add two of them', [{ action: 'add_to_cart', item: { kind: 'current' }, quantity: 2 }]],
    ['add the second one', [{ action: 'add_to_cart', item: { kind: 'position', index: 1 }, quantity: 1 }]],
    ['put a couple of #3 in the cart', [{ action: 'add_to_cart', item: { kind: 'position', index: 2 }, quantity: 2 }]],
    ['add prod_mug_blue', [{ action: 'add_to_cart', item: { kind: 'id', id: 'prod_mug_blue' }, quantity: 1 }]],
    [
      'buy a dozen fountain pens',
      [{ action: 'add_to_cart', item: { kind: 'query', query: 'fountain pens' }, quantity: 12 }],
    ],
    ["what's in my cart?", [{ action: 'view_cart' }]],
    ['show me my basket', [{ action: 'view_cart' }]],
    ['remove the teapot from my cart', [{ action: 'remove_from_cart', item: { kind: 'query', query: 'teapot' } }]],
    ['take it out', [{ action: 'remove_from_cart', item: { kind: 'current' } }]],
    ['tell me more about the kettle', [{ action: 'details', item: { kind: 'query', query: 'kettle' } }]],
    ['how much is it?', [{ action: 'details', item: { kind: 'current' } }]],
    ['the second one', [{ action: 'details', item: { kind: 'position', index: 1 } }]],
    ['prod_kettle', [{ action: 'details', item: { kind: 'id', id: 'prod_kettle' } }]],
    ['Check out, please', [{ action: 'checkout' }]],
    [
      'add one bluetooth speaker. then checkout',
      [
        { action: 'add_to_cart', item: { kind: 'query', query: 'bluetooth speaker' }, quantity: 1 },
        { action: 'checkout' },
      ],
    ],
    ['hello!', [{ action: 'help' }]],
    ['', [{ action: 'help' }]],
  ];

  it.each(cases)('%j', (text, steps) => {
    expect(parseShoppingText(text)).toEqual(steps);
  });
});

describe('parseShoppingData', () => {
  it('reads the skills as actions', () => {
    expect(parseShoppingData({ action: 'search', query: ' mug ', limit: 3 })).toEqual({
      action: 'search',
      query: 'mug',
      limit: 3,
    });
    expect(parseShoppingData({ skill: 'add_to_cart', item_id: 'prod_x' })).toEqual({
      action: 'add_to_cart',
      item: { kind: 'id', id: 'prod_x' },
      quantity: 1,
    });
    expect(parseShoppingData({ action: 'checkout' })).toEqual({ action: 'checkout' });
  });

  it.each([
    [[1], 'data'],
    [{ action: 'steal' }, 'action'],
    [{ action: 'search' }, 'query'],
    [{ action: 'search', query: 'x', limit: 0 }, 'limit'],
    [{ action: 'details', item_id: 7 }, 'item_id'],
    [{ action: 'add_to_cart', item_id: 'prod_x', quantity: 2.5 }, 'quantity'],
    [{ action: 'add_to_cart', item_id: 'prod_x', quantity: 0 }, 'quantity'],
  ])('names the bad field of %j', (data, field) => {
    let error: unknown;
    try {
      parseShoppingData(data);
    } catch (caught) {
      error = caught;
    }
    expect(isDomainError(error) && error.details).toMatchObject({ fields: [{ field }] });
  });
});
