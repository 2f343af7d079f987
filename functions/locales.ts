import { createLocalesApp } from '../lib/admin-app.js'
import { bundledOpenApi } from '../lib/openapi/bundled.js'
import { handle } from './api-gateway.js'
import { lambdaServices } from './runtime.js'

// The public OpenAPI document: the file the stack wrote beside the bundle (the builder is not bundled).
export const handler = handle(createLocalesApp(await lambdaServices(undefined, { indexState: false }), false, bundledOpenApi()))
