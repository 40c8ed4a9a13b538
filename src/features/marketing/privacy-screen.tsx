import { TextLink } from '../../ui/text-link.tsx';
import { usePageTitle } from '../../ui/use-page-title.ts';
import { LegalDocument, type LegalSection } from './legal-document.tsx';
import { sitePageTitle } from './site-pages.ts';

export const privacyLastUpdated = '2026-11-22';

const processors = [
  {
    name: 'Supabase',
    purpose: 'Sign-in, when the hosted authentication service is used',
    data: 'Email, name, password hash, sign-in sessions, second-factor settings',
  },
  {
    name: 'Stripe',
    purpose: 'Card payments and subscriptions',
    data: 'Name, email, amounts, plan; card details go to Stripe directly and never reach us',
  },
  {
    name: 'Microsoft Azure',
    purpose: 'File storage, when Azure Blob Storage is used',
    data: 'The files you upload and their names',
  },
  {
    name: 'Your email provider or ours',
    purpose: 'Sending sign-in, notification and contact emails, when an SMTP service is set up',
    data: 'Email address and the content of the message',
  },
  {
    name: 'Google',
    purpose: 'Only if you choose “Sign in with Google”',
    data: 'The name, email and picture Google shares with us',
  },
] as const;

const sections: readonly LegalSection[] = [
  {
    id: 'summary',
    title: 'The short version',
    body: (
      <>
        <p>
          We keep what you put into Satchel so that we can run it for you, and nothing more. We do
          not sell data, show ads, or use analytics or advertising cookies. Your clients’ data is
          yours: we only process it on your behalf.
        </p>
        <ul>
          <li>Your workspace lives on our servers and, as a copy, on the devices you use.</li>
          <li>Your clients see only the project you share with them, behind a password.</li>
          <li>You can get a copy of your data, or have it deleted, at any time.</li>
        </ul>
      </>
    ),
  },
  {
    id: 'who',
    title: 'Who is responsible',
    body: (
      <>
        <p>
          Satchel (“we”, “us”) runs the service and is responsible, as controller, for your account
          data and for the messages you send us.
        </p>
        <p>
          For the content you put into your workspace about your clients (their names, contacts,
          projects, files and messages) <strong>you are the controller</strong> and we are your
          processor: we store and show it only to run Satchel for you, following your instructions,
          and we help you answer your clients’ requests about it.
        </p>
      </>
    ),
  },
  {
    id: 'what-we-store',
    title: 'What we store',
    body: (
      <>
        <p>
          <strong>Your account.</strong> Email address, name and profile picture (if you sign in
          with Google), your password as an Argon2id hash (never the password itself), second-factor
          settings and your active sign-in sessions.
        </p>
        <p>
          <strong>Your workspace.</strong> Clients and their contacts, projects, milestones and the
          decisions on them, tasks, notes, files, chat messages, change requests, calendar entries,
          notifications, and records of payments and subscriptions (amount, status and the Stripe
          reference; never card numbers). Members of your workspace and their roles.
        </p>
        <p>
          <strong>The client portal.</strong> Each shared project’s portal password, as a hash.
          Nothing is stored about your client beyond what you entered yourself, a session cookie
          while they are signed in, and the record of what they did in the portal (for example,
          approving a milestone, with its date).
        </p>
        <p>
          <strong>Messages you send us.</strong> The contact form keeps your name, email, subject,
          message and IP address. The feedback form keeps your rating, topic, message, the email
          address if you give one, your account id if you are signed in, and your IP address.
        </p>
        <p>
          <strong>Technical logs.</strong> For each request: time, IP address, the page or API
          operation, the response status and a request id. We use them to keep the service running
          and to stop abuse.
        </p>
      </>
    ),
  },
  {
    id: 'where',
    title: 'Where it is kept',
    body: (
      <>
        <p>
          <strong>On our servers:</strong> in a PostgreSQL database, with files on our own storage
          or in Azure Blob Storage when that is configured.
        </p>
        <p>
          <strong>On your devices:</strong> so that Satchel works offline, each browser you sign in
          with keeps a copy of the workspace data you opened (in IndexedDB), the app’s own files (in
          the service worker cache) and your theme choice (in local storage, as{' '}
          <code>satchel-theme</code>). A client’s browser keeps the portal session it needs (as{' '}
          <code>client_access_session</code>: the project, the client and the time of the last
          activity) and the portal files it opened. You can remove all of it by clearing the site’s
          data in your browser’s settings.
        </p>
      </>
    ),
  },
  {
    id: 'why',
    title: 'Why we use it',
    body: (
      <ul>
        <li>
          <strong>To provide Satchel</strong> under our agreement with you: your account, your
          workspace, syncing, the portal and notifications.
        </li>
        <li>
          <strong>To keep it safe</strong> (our legitimate interest): logs, rate limits on forms and
          passwords, and investigating abuse.
        </li>
        <li>
          <strong>To answer you</strong> when you write to us, and to improve the product from the
          feedback you send.
        </li>
        <li>
          <strong>To bill you</strong> and keep the records that tax law requires.
        </li>
      </ul>
    ),
  },
  {
    id: 'retention',
    title: 'How long we keep it',
    body: (
      <ul>
        <li>
          Your account and workspace: as long as your account is open, then deleted within 30 days
          of closing it.
        </li>
        <li>
          The record of changes used for syncing devices: 90 days, after which a device that has
          been away longer downloads the workspace again.
        </li>
        <li>Contact messages and feedback: two years, then deleted.</li>
        <li>Technical logs: 30 days.</li>
        <li>
          Invoices and payment records: as long as tax law requires, typically up to 10 years.
        </li>
      </ul>
    ),
  },
  {
    id: 'portal',
    title: 'What the client portal shows',
    body: (
      <>
        <p>
          Anyone with a project’s portal link and its password sees that project: its name and
          progress, its milestones and their status, the files you shared, its change requests and
          the portal chat, with your workspace’s name and logo. They never see your internal notes,
          your other projects or your other clients.
        </p>
        <p>
          A portal session ends after 30 minutes without activity. You decide who gets the password
          and can change it at any time.
        </p>
      </>
    ),
  },
  {
    id: 'processors',
    title: 'Who processes it for us',
    body: (
      <>
        <p>
          We use these services only when they are configured for the Satchel you use, and only for
          what is listed. Each is bound by a data processing agreement.
        </p>
        <div
          role="region"
          aria-label="Sub-processors"
          tabIndex={0}
          className="mt-4 overflow-x-auto rounded-xl border border-border"
        >
          <table className="w-full min-w-[32rem] border-collapse text-left text-sm">
            <thead className="bg-surface-muted">
              <tr>
                <th scope="col" className="px-3 py-2 font-semibold">
                  Service
                </th>
                <th scope="col" className="px-3 py-2 font-semibold">
                  What for
                </th>
                <th scope="col" className="px-3 py-2 font-semibold">
                  Which data
                </th>
              </tr>
            </thead>
            <tbody>
              {processors.map((processor) => (
                <tr key={processor.name} className="border-t border-border align-top">
                  <th scope="row" className="px-3 py-2 font-semibold">
                    {processor.name}
                  </th>
                  <td className="px-3 py-2 text-fg-muted">{processor.purpose}</td>
                  <td className="px-3 py-2 text-fg-muted">{processor.data}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <p>
          Some of them may process data outside your country; where they do, they rely on the
          safeguards the law requires, such as the European Commission’s standard contractual
          clauses.
        </p>
      </>
    ),
  },
  {
    id: 'cookies',
    title: 'Cookies and local storage',
    body: (
      <p>
        Satchel uses no advertising or analytics cookies. It uses what it needs to work: your
        sign-in session, the portal session cookie for clients, and the local storage and caches
        described under <a href="#where">Where it is kept</a>. None of them is used to follow you
        across other sites.
      </p>
    ),
  },
  {
    id: 'rights',
    title: 'Your rights',
    body: (
      <>
        <p>
          You can ask us for a copy of your data, to correct it, to delete it, to restrict or object
          to how we use it, and to receive it in a portable format. Much of it you can also change
          yourself in Settings.
        </p>
        <p>
          Write to us through the <TextLink href="/contact">contact form</TextLink>; we answer
          within 30 days. You may also complain to your data protection authority.
        </p>
        <p>
          If you are a client of one of our users and want to use these rights about the data they
          keep about you, ask them first: they are the controller. We will help them answer.
        </p>
      </>
    ),
  },
  {
    id: 'security',
    title: 'How we protect it',
    body: (
      <ul>
        <li>Passwords and portal passwords are stored only as Argon2id hashes.</li>
        <li>
          Everything is served over HTTPS, and the app only runs scripts that come from Satchel.
        </li>
        <li>Forms and password attempts are rate limited.</li>
        <li>File downloads use signed links that expire.</li>
        <li>A portal session opens only the one project it was created for.</li>
      </ul>
    ),
  },
  {
    id: 'children',
    title: 'Children',
    body: <p>Satchel is a tool for work and is not meant for anyone under 16.</p>,
  },
  {
    id: 'changes',
    title: 'Changes to this policy',
    body: (
      <p>
        When we change this policy we update the date at the top. If a change affects how we use
        your data, we tell account owners by email at least 30 days before it applies.
      </p>
    ),
  },
  {
    id: 'contact',
    title: 'Contact',
    body: (
      <p>
        Questions about privacy go through the <TextLink href="/contact">contact form</TextLink>.
        Put “Privacy” in the subject so it reaches the right person.
      </p>
    ),
  },
];

export function PrivacyScreen() {
  usePageTitle(sitePageTitle('/privacy-policy'));
  return (
    <LegalDocument
      title="Privacy policy"
      lead="What Satchel stores about you and your clients, where it is kept, for how long, who processes it, and how to get it deleted."
      lastUpdated={privacyLastUpdated}
      sections={sections}
    />
  );
}
