import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { workspaceMemberSchema, workspaceSchema } from '#contract/entities/workspace.ts';
import { allEntities } from '#contract/synced-entities.ts';
import { DEMO_USER_ID } from './demo-mode.ts';
import { buildDemoSeed, DEMO_WORKSPACE_ID } from './demo-seed.ts';

const seed = buildDemoSeed(new Date('2026-03-10T09:00:00Z'));
const tableRows = (table: string) =>
  (seed.rows as Record<string, Record<string, unknown>[] | undefined>)[table] ?? [];

/** Issues of a schema as "path: message" lines, so a failure names the field. */
function issuesOf(schema: v.GenericSchema, row: unknown): string[] {
  const result = v.safeParse(schema, row);
  return result.success
    ? []
    : result.issues.map(
        (issue) => `${v.getDotPath(issue) ?? '(row)'}: ${issue.message} (${JSON.stringify(row)})`,
      );
}

describe('the demo seed', () => {
  it('names only tables of declared entities', () => {
    const declared = new Set(allEntities().map((entity) => entity.table));
    for (const table of Object.keys(seed.rows)) expect(declared).toContain(table);
  });

  it('has a workspace and its owner as the contract describes them', () => {
    expect(issuesOf(workspaceSchema, seed.workspace)).toEqual([]);
    expect(issuesOf(workspaceMemberSchema, seed.member)).toEqual([]);
    expect(seed.member.role).toBe('owner');
  });

  // The row schema is what a pull stores; the create schema adds what an app-made row must be
  // (UUID ids, valid order keys, currency codes, the entity's cross-field rules).
  for (const entity of allEntities()) {
    it(`every ${entity.name} row satisfies its row and create schemas`, () => {
      for (const row of tableRows(entity.table)) {
        expect(issuesOf(entity.rowSchema, row)).toEqual([]);
        expect(issuesOf(entity.createSchema, row)).toEqual([]);
        expect(row.workspaceId).toBe(DEMO_WORKSPACE_ID);
      }
    });
  }

  it('points every child at a parent in the seed, and ids are unique', () => {
    const ids = new Set<string>();
    for (const entity of allEntities()) {
      const parentIds = entity.parent
        ? new Set(tableRows(entityTable(entity.parent.entity)).map((row) => row.id))
        : null;
      for (const row of tableRows(entity.table)) {
        expect(ids.has(row.id as string), `duplicate id ${String(row.id)}`).toBe(false);
        ids.add(row.id as string);
        if (entity.parent && parentIds) expect(parentIds).toContain(row[entity.parent.key]);
      }
    }
    // Tasks sit in a column of their own project.
    const columnProject = new Map(tableRows('kanbanColumns').map((c) => [c.id, c.projectId]));
    for (const task of tableRows('tasks'))
      expect(columnProject.get(task.columnId)).toBe(task.projectId);
  });

  it('has what the issue asks for: clients, projects with milestones, tasks, notes, files, change requests, invoices with a payment', () => {
    expect(tableRows('clients').length).toBeGreaterThanOrEqual(4);
    expect(tableRows('clients').length).toBeLessThanOrEqual(6);
    expect(tableRows('projects')).toHaveLength(3);
    for (const project of tableRows('projects')) {
      expect(tableRows('milestones').some((m) => m.projectId === project.id)).toBe(true);
    }
    expect(tableRows('tasks').length).toBeGreaterThanOrEqual(12);
    expect(tableRows('notes').length).toBeGreaterThan(0);
    expect(tableRows('files').length).toBeGreaterThan(0);
    expect(tableRows('changeRequests').length).toBeGreaterThan(0);
    expect(tableRows('invoices').length).toBeGreaterThanOrEqual(2);
    expect(tableRows('invoicePayments').length).toBeGreaterThanOrEqual(1);
  });

  it('gives the visitor (a UUID, as the schemas want) work due this week, and assigns only them', () => {
    expect(seed.member.id).toBe(DEMO_USER_ID);
    const tasks = tableRows('tasks');
    const doneColumns = new Set(
      tableRows('kanbanColumns')
        .filter((column) => column.isDone === true)
        .map((column) => column.id),
    );
    for (const task of tasks) expect([null, DEMO_USER_ID]).toContain(task.assigneeId);
    // The dashboard's "My tasks due this week": today and the six days after, not done.
    const mine = tasks.filter(
      (task) =>
        task.assigneeId === DEMO_USER_ID &&
        !doneColumns.has(task.columnId as string) &&
        typeof task.dueDate === 'string' &&
        task.dueDate >= '2026-03-10' &&
        task.dueDate <= '2026-03-16',
    );
    expect(mine.length).toBeGreaterThanOrEqual(3);
  });

  it('dates follow the day it is opened', () => {
    const later = buildDemoSeed(new Date('2027-01-05T09:00:00Z'));
    expect(later.rows.projects?.[0]?.dueDate).not.toBe(seed.rows.projects?.[0]?.dueDate);
    expect(String(later.rows.projects?.[0]?.dueDate)).toMatch(/^2027-01-/);
  });
});

function entityTable(name: string): string {
  return allEntities().find((entity) => entity.name === name)?.table ?? '';
}
