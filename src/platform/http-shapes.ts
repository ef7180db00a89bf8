// HTTP shapes every module's routes share: the error envelope (as a $ref to the ErrorBody
// component), the success envelope and the market path parameters. They live here, below the
// modules, so no module's routes import another module's routes for them.
import { type TSchema, Type } from 'typebox';
import { ErrorBody as ErrorBodyComponent, ref } from './openapi.js';

/** `{success:false, error, message}`: a $ref to the ErrorBody component */
export const ErrorBody = ref(ErrorBodyComponent);

/** the success envelope `{success:true, data}` around a response's data */
export const ok = <T extends TSchema>(data: T) => Type.Object({ success: Type.Literal(true), data });

/** the path parameters of every market-scoped route: /api/{market}/{lang}/... */
export const MarketPath = { market: Type.String(), lang: Type.String() };
