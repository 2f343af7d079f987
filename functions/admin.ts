import { handle } from 'hono/aws-lambda'
import { createAdminApp } from '../lib/admin-app.js'
import { lambdaServices } from './runtime.js'

const services = await lambdaServices()
// The admin function may write settings: a new deployment's public role is fixed at its first start.
await services.access.ensurePublicRole()
export const handler = handle(createAdminApp(services))
