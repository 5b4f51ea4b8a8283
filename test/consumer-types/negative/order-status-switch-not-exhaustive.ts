// @expect-error /Type '(?:"fulfilled"|string)' is not assignable to type 'never'/
// @hint /"fulfilled"/
/**
 * A switch over the order status that forgets `'fulfilled'` does not compile, and the error is about
 * the missing value alone (not an open `string & {}` remainder, which would break every such switch,
 * exhaustive or not). TypeScript 6+ names the value (`Type '"fulfilled"' is not assignable to type
 * 'never'`); 5.5 widens a lone literal to its base type in this message (`Type 'string' …`).
 */
import type { Order } from 'merchant-fulfillment';

export function describe(order: Order): string {
  switch (order.status) {
    case 'fulfillable':
      return 'will be fulfilled';
    case 'unfulfillable':
      return 'blocked or cancelled';
    default: {
      const _never: never = order.status;
      return _never;
    }
  }
}
