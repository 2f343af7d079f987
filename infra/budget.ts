// The optional cost guard rail of a stage: a monthly AWS Budget on the costs tagged with the stage,
// emailing at 80% of the forecast and at 100% of the actual spend.
import { CfnBudget } from 'aws-cdk-lib/aws-budgets'
import type { Construct } from 'constructs'

/** The budget of `stage`: `monthlyUsd` a month, alerts to `email`. Needs the `stage` cost allocation tag activated. */
export function createBudget(scope: Construct, stage: string, monthlyUsd: number, email: string): CfnBudget {
  const subscribers = [{ subscriptionType: 'EMAIL', address: email }]
  const alert = (notificationType: 'FORECASTED' | 'ACTUAL', threshold: number) => ({
    notification: { notificationType, comparisonOperator: 'GREATER_THAN', threshold, thresholdType: 'PERCENTAGE' },
    subscribers,
  })
  return new CfnBudget(scope, 'Budget', {
    budget: {
      budgetName: `content-api-${stage}`,
      budgetType: 'COST',
      timeUnit: 'MONTHLY',
      budgetLimit: { amount: monthlyUsd, unit: 'USD' },
      // The stack tags every resource `stage=<stage>` (infra/app.ts).
      costFilters: { TagKeyValue: [`user:stage$${stage}`] },
    },
    notificationsWithSubscribers: [alert('FORECASTED', 80), alert('ACTUAL', 100)],
  })
}
