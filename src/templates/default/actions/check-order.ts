import { defineAction } from 'parley';

/** A stand-in for your order system: order number -> status. */
const ORDERS: Readonly<Record<string, string>> = {
  '12345': 'on its way',
  '67890': 'delivered',
};

/**
 * `check_order`: looks up the order in `order_number` and sets `order_status` (`not_found` when there
 * is no such order), which the flow branches on and utter_order_status shows.
 */
export const actionCheckOrder = defineAction({
  name: 'action_check_order',
  run(context) {
    const orderNumber = String(context.slot('order_number') ?? '').trim();
    const status = ORDERS[orderNumber] ?? 'not_found';
    return { events: [{ event: 'slot', name: 'order_status', value: status }] };
  },
});
