/** `APIPromise` lives with the rest of a response's way to a result (`response.ts`). */
export { APIPromise, type WithResponse } from './response.js';
