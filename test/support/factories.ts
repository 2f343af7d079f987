// Request-body factories with overrides, in the shape clients send.
export const paragraph = (text: string) => [{ type: 'paragraph', children: [{ type: 'text', text }] }]

export function articleData(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { title: 'A title', body: paragraph('Some text'), slug: 'a-title', views: 0, category: 'news', ...overrides }
}

export function body(data: Record<string, unknown>) {
  return { data }
}
