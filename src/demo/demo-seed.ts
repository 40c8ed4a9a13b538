/**
 * The demo workspace's sample data: a small design studio's week (clients, projects with
 * milestones and boards, tasks, notes, files' metadata, change requests, invoices and a payment),
 * as server rows of each synced entity's contract (demo-seed.test.ts runs every row through its
 * entity's schemas). Keyed by table name, so seeding is one generic loop over the registry.
 *
 * Dates are relative to the day the demo is opened, so the dashboard always has work due this
 * week and an invoice overdue, never a project that ended years ago. Ids are fixed UUIDs, so a
 * link into the demo stays valid across a reset.
 */
import type { SyncedEntityTable } from '#contract/synced-entities.ts';
import type { Workspace, WorkspaceMember } from '#contract/entities/workspace.ts';
import { DEMO_USER_ID } from './demo-mode.ts';

export const DEMO_WORKSPACE_ID = 'de7a0000-0000-4000-8000-000000000001';

const id = (kind: number, n: number) =>
  `de7a0000-0000-4000-8${String(kind).padStart(3, '0')}-${String(n).padStart(12, '0')}`;

export const demoIds = {
  client: (n: number) => id(1, n),
  project: (n: number) => id(2, n),
  milestone: (n: number) => id(3, n),
  column: (n: number) => id(4, n),
  task: (n: number) => id(5, n),
  note: (n: number) => id(6, n),
  clientNote: (n: number) => id(7, n),
  file: (n: number) => id(8, n),
  changeRequest: (n: number) => id(9, n),
  invoice: (n: number) => id(10, n),
  invoiceLine: (n: number) => id(11, n),
  payment: (n: number) => id(12, n),
};

/** Order keys in ascending order (fractional-indexing keys the contract's schema accepts). */
const orderKeys = ['a0', 'a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8', 'a9'] as const;
const key = (index: number) => orderKeys[index] ?? 'a9';

export interface DemoSeed {
  workspace: Workspace;
  member: WorkspaceMember;
  /** Server rows (no local fields) of each entity's table. */
  rows: Partial<Record<SyncedEntityTable, Record<string, unknown>[]>>;
}

function isoDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

export function buildDemoSeed(now: Date = new Date()): DemoSeed {
  const day = (offset: number) => {
    const date = new Date(now);
    date.setDate(date.getDate() + offset);
    return isoDay(date);
  };
  const at = (daysAgo: number) => new Date(now.getTime() - daysAgo * 86_400_000).toISOString();
  let versions = 0;
  /** The fields every entity row shares; `daysAgo` sets its creation time. */
  const base = (rowId: string, daysAgo: number) => ({
    id: rowId,
    workspaceId: DEMO_WORKSPACE_ID,
    createdAt: at(daysAgo),
    createdBy: DEMO_USER_ID,
    updatedAt: at(Math.max(0, daysAgo - 1)),
    updatedBy: DEMO_USER_ID,
    version: ++versions,
  });

  const workspace: Workspace = {
    id: DEMO_WORKSPACE_ID,
    name: 'Studio North (demo)',
    logoUrl: null,
    brandColor: '#0f766e',
    currency: 'USD',
    timeZone: 'UTC',
    locale: 'en-US',
    portalWelcomeText: 'Welcome! Here is where your project stands.',
    settings: {
      businessAddress: '12 Harbour Street, Portland, ME',
      paymentInstructions:
        'Bank transfer to Studio North, account 000123456 (sample details: this is the demo). Please quote the invoice number.',
    },
    createdAt: at(60),
    updatedAt: at(60),
  };
  const member: WorkspaceMember = {
    id: DEMO_USER_ID,
    email: 'demo@satchel.example',
    firstName: 'Demo',
    lastName: 'Visitor',
    profilePictureUrl: null,
    role: 'owner',
    joinedAt: at(60),
  };

  const client = (
    n: number,
    name: string,
    company: string | null,
    email: string,
    status: 'lead' | 'active' | 'inactive',
    tags: string[],
    daysAgo: number,
  ) => ({
    ...base(demoIds.client(n), daysAgo),
    name,
    company,
    email,
    phone: null,
    address: null,
    website: null,
    notesSummary: null,
    tags,
    status,
    currency: 'USD',
    locale: null,
    timeZone: null,
    archived: false,
  });
  const clients = [
    client(
      1,
      'Maya Chen',
      'Maya’s Bakery',
      'maya@mayasbakery.example',
      'active',
      ['retail', 'web'],
      50,
    ),
    client(
      2,
      'Tom Becker',
      'Becker & Sons Hardware',
      'tom@becker.example',
      'active',
      ['retail'],
      45,
    ),
    client(
      3,
      'Priya Natarajan',
      'Lumen Health',
      'priya@lumenhealth.example',
      'active',
      ['health', 'app'],
      30,
    ),
    client(4, 'Jonas Weber', 'Fjord Coffee', 'jonas@fjord.example', 'lead', ['coffee'], 8),
    client(5, 'Amara Okafor', null, 'amara@okafor.example', 'inactive', ['photography'], 55),
  ];

  const project = (
    n: number,
    clientN: number,
    name: string,
    status: 'planned' | 'active' | 'on_hold' | 'completed',
    startOffset: number,
    dueOffset: number,
    budget: string,
    color: string,
    description: string,
  ) => ({
    ...base(demoIds.project(n), 40 - n * 5),
    clientId: demoIds.client(clientN),
    name,
    description,
    status,
    startDate: day(startOffset),
    dueDate: day(dueOffset),
    budget,
    currency: 'USD',
    billingType: 'fixed',
    color,
    archived: false,
  });
  const projects = [
    project(
      1,
      1,
      'Bakery website redesign',
      'active',
      -30,
      21,
      '8500',
      '#0f766e',
      'A new website with online pre-orders, a menu that the bakery updates itself, and photos of the shop.',
    ),
    project(
      2,
      2,
      'Hardware store brand refresh',
      'active',
      -14,
      35,
      '6200',
      '#b45309',
      'Logo, signage and a small style guide for the store’s 50th anniversary.',
    ),
    project(
      3,
      3,
      'Patient app onboarding',
      'planned',
      7,
      70,
      '14000',
      '#4f46e5',
      'Onboarding screens and copy for Lumen’s patient app, tested with five patients.',
    ),
  ];

  const milestone = (
    n: number,
    projectN: number,
    index: number,
    title: string,
    dueOffset: number,
    amount: number,
    status: 'planned' | 'in_progress' | 'awaiting_approval' | 'approved',
  ) => ({
    ...base(demoIds.milestone(n), 30),
    projectId: demoIds.project(projectN),
    title,
    description: null,
    dueDate: day(dueOffset),
    amount,
    currency: 'USD',
    status,
    position: key(index),
    visibleToClient: true,
    signOff:
      status === 'approved'
        ? { decision: 'approved', by: 'Maya Chen', at: at(10), comment: 'Looks lovely!', ip: null }
        : null,
  });
  const milestones = [
    milestone(1, 1, 0, 'Sitemap and wireframes', -12, 200000, 'approved'),
    milestone(2, 1, 1, 'Visual design', 3, 300000, 'awaiting_approval'),
    milestone(3, 1, 2, 'Build and launch', 21, 350000, 'planned'),
    milestone(4, 2, 0, 'Logo concepts', 5, 250000, 'in_progress'),
    milestone(5, 2, 1, 'Signage and style guide', 35, 370000, 'planned'),
    milestone(6, 3, 0, 'Research and flows', 28, 600000, 'planned'),
  ];

  const columnNames = [
    ['To do', false],
    ['In progress', false],
    ['Review', false],
    ['Done', true],
  ] as const;
  const columns = projects.flatMap((_, p) =>
    columnNames.map(([name, isDone], c) => ({
      ...base(demoIds.column(p * 4 + c + 1), 30),
      projectId: demoIds.project(p + 1),
      name,
      position: key(c),
      isDone,
    })),
  );
  /** The column `c` (0 to do … 3 done) of project `p` (1-based). */
  const columnOf = (p: number, c: number) => demoIds.column((p - 1) * 4 + c + 1);

  const taskSpecs: [
    projectN: number,
    column: number,
    title: string,
    dueOffset: number | null,
    priority: 'none' | 'low' | 'medium' | 'high' | 'urgent',
    milestoneN: number | null,
  ][] = [
    [1, 3, 'Collect menu and prices', -10, 'medium', 1],
    [1, 3, 'Wireframes for home and menu', -8, 'high', 1],
    [1, 2, 'Home page design', 1, 'high', 2],
    [1, 1, 'Pre-order flow design', 2, 'high', 2],
    [1, 0, 'Photograph the shop', 6, 'medium', 3],
    [1, 0, 'Set up hosting and domain', 14, 'low', 3],
    [1, 0, 'Write the About page', 10, 'none', 3],
    [2, 1, 'Three logo directions', 0, 'urgent', 4],
    [2, 0, 'Mood board from the 1970s catalogues', -1, 'medium', 4],
    [2, 3, 'Kick-off call notes', -12, 'none', null],
    [2, 0, 'Measure the shop front sign', 20, 'low', 5],
    [3, 0, 'Interview plan for five patients', 9, 'medium', 6],
    [3, 0, 'Audit the current sign-up screens', 12, 'medium', 6],
    [3, 0, 'Accessibility checklist', 20, 'low', 6],
    [3, 0, 'Plan the copy tone with Priya', null, 'none', null],
  ];
  const positionInColumn = new Map<string, number>();
  const tasks = taskSpecs.map(([projectN, column, title, dueOffset, priority, milestoneN], i) => {
    const columnId = columnOf(projectN, column);
    const index = positionInColumn.get(columnId) ?? 0;
    positionInColumn.set(columnId, index + 1);
    return {
      ...base(demoIds.task(i + 1), 20 - i),
      projectId: demoIds.project(projectN),
      title,
      description: null,
      columnId,
      position: key(index),
      // The visitor's own work ("My tasks due this week" on the dashboard); undated ones are open.
      assigneeId: dueOffset === null ? null : DEMO_USER_ID,
      dueDate: dueOffset === null ? null : day(dueOffset),
      priority,
      labels: /design|wireframe|logo|mood/i.test(title)
        ? ['design']
        : /write|copy/i.test(title)
          ? ['copy']
          : [],
      estimateMinutes: priority === 'none' ? null : 120,
      milestoneId: milestoneN === null ? null : demoIds.milestone(milestoneN),
      checklist:
        i === 2
          ? [
              { id: 'c1', text: 'Hero with this week’s bakes', done: true },
              { id: 'c2', text: 'Opening hours and map', done: false },
            ]
          : [],
    };
  });

  const notes = [
    {
      ...base(demoIds.note(1), 25),
      projectId: demoIds.project(1),
      title: 'Kick-off notes',
      body: 'Maya wants pre-orders for weekend cakes, closing Thursday noon.\n\nTone: warm, a little playful. No stock photos.',
      pinned: true,
    },
    {
      ...base(demoIds.note(2), 6),
      projectId: demoIds.project(2),
      title: 'Colour ideas',
      body: 'Keep the original red (#b91c1c) and pair it with a warm grey. Tom dislikes green.',
      pinned: false,
    },
  ];
  const clientNotes = [
    {
      ...base(demoIds.clientNote(1), 40),
      clientId: demoIds.client(1),
      title: 'How Maya likes to work',
      body: 'Prefers a call on Mondays before the shop opens (7:30). Pays within a week.',
      pinned: true,
    },
  ];

  const file = (n: number, projectN: number, name: string, type: string, size: number) => ({
    ...base(demoIds.file(n), 15 - n),
    projectId: demoIds.project(projectN),
    name,
    folder: '',
    visibleToClient: true,
    size,
    type,
    checksum: '',
    blobName: '',
    uploadedBy: DEMO_USER_ID,
    versions: [],
  });
  const files = [
    file(1, 1, 'wireframes-v2.pdf', 'application/pdf', 1_482_113),
    file(2, 1, 'shop-front.jpg', 'image/jpeg', 2_310_400),
    file(3, 2, 'logo-sketches.pdf', 'application/pdf', 845_020),
  ];

  const changeRequests = [
    {
      ...base(demoIds.changeRequest(1), 3),
      projectId: demoIds.project(1),
      title: 'Add a gift card page',
      description: 'Could customers buy gift cards online too? Mostly for the holidays.',
      desiredDate: day(30),
      status: 'submitted',
      costImpact: null,
      currency: 'USD',
      scheduleImpactDays: null,
      answer: null,
      source: 'portal',
      requestedBy: 'Maya Chen',
      clientDecision: null,
      attachmentFileIds: [],
      appliedAt: null,
    },
    {
      ...base(demoIds.changeRequest(2), 9),
      projectId: demoIds.project(2),
      title: 'Van lettering',
      description: 'Apply the new logo to the delivery van.',
      desiredDate: null,
      status: 'quoted',
      costImpact: 45000,
      currency: 'USD',
      scheduleImpactDays: 5,
      answer: 'Happy to: it adds a week for the print shop.',
      source: 'member',
      requestedBy: '',
      clientDecision: null,
      attachmentFileIds: [],
      appliedAt: null,
    },
  ];

  const line = (n: number, description: string, unitPrice: number, milestoneN: number | null) => ({
    id: demoIds.invoiceLine(n),
    description,
    quantity: 1,
    unitPrice,
    taxRate: 0,
    discountPercent: 0,
    milestoneId: milestoneN === null ? null : demoIds.milestone(milestoneN),
    changeRequestId: null,
  });
  const invoice = (
    n: number,
    clientN: number,
    projectN: number | null,
    title: string,
    status: 'draft' | 'sent',
    number: number | null,
    issueOffset: number | null,
    lines: ReturnType<typeof line>[],
  ) => ({
    ...base(demoIds.invoice(n), issueOffset === null ? 1 : -issueOffset),
    clientId: demoIds.client(clientN),
    title,
    projectId: projectN === null ? null : demoIds.project(projectN),
    status,
    number,
    currency: 'USD',
    issueDate: issueOffset === null ? null : day(issueOffset),
    dueDate: issueOffset === null ? null : day(issueOffset + 14),
    paymentTerms: 'net_14',
    lines,
    notes: 'Thank you! Bank transfer details are on the portal.',
    sentAt: status === 'sent' && issueOffset !== null ? at(-issueOffset) : null,
    viewedAt: null,
  });
  const invoices = [
    invoice(1, 1, 1, 'Sitemap and wireframes', 'sent', 1, -12, [
      line(1, 'Sitemap and wireframes', 200000, 1),
    ]),
    invoice(2, 5, null, 'Portrait retouching', 'sent', 2, -20, [
      line(2, 'Retouching, 12 portraits', 90000, null),
      line(3, 'Print-ready exports', 15000, null),
    ]),
    invoice(3, 2, 2, 'Logo concepts (deposit)', 'draft', null, null, [
      line(4, 'Logo concepts: 50% deposit', 125000, 4),
    ]),
  ];
  const payments = [
    {
      ...base(demoIds.payment(1), 4),
      invoiceId: demoIds.invoice(1),
      kind: 'payment',
      amount: 200000,
      method: 'bank_transfer',
      paidOn: day(-4),
      reference: 'MAYA-0412',
      externalId: null,
    },
  ];

  return {
    workspace,
    member,
    rows: {
      clients,
      projects,
      milestones,
      kanbanColumns: columns,
      tasks,
      notes,
      clientNotes,
      files,
      changeRequests,
      invoices,
      invoicePayments: payments,
    },
  };
}
