import { handle } from 'hono/aws-lambda'
import { createAdminSite } from '../lib/admin-ui/site.js'
import { bundledOpenApi } from '../lib/openapi/bundled.js'
import { lambdaServices } from './runtime.js'

const services = await lambdaServices()
// The admin function may write settings: a new deployment's public role is fixed at its first start.
await services.access.ensurePublicRole()
// Its OpenAPI document: the file the stack wrote beside the bundle (the builder is not bundled).
export const handler = handle(createAdminSite(services, bundledOpenApi()))
