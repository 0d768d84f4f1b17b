import type { Metadata } from 'next';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { QueryProvider } from '@/lib/client/api/query-provider';
import { NavLink } from '@/components/ui/nav-link';
import { RoomNotices } from '@/components/room/room-notices';
import { THEME_SCRIPT, ThemeToggle } from '@/components/ui/theme-toggle';
import './globals.css';

export const metadata: Metadata = {
  title: 'Loop Lab',
  description: 'See how LLM agent loops survive failure.',
  icons: { icon: '/favicon.svg' },
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        <script dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }} />
      </head>
      <body className="min-h-screen">
        <QueryProvider>
          {/* First Tab stop: past the site links straight to the page (WCAG 2.4.1). */}
          <a
            href="#main"
            className="sr-only focus:not-sr-only focus:fixed focus:top-1 focus:left-1 focus:z-50 focus:rounded focus:border focus:border-line focus:bg-panel focus:px-2 focus:py-1 focus:text-xs"
          >
            Skip to content
          </a>
          {/* Below 640 px the links take a row of their own rather than hide behind a sideways scroll. */}
          <header className="flex h-(--header-h) flex-wrap items-center gap-x-4 border-b border-line bg-panel px-4 max-sm:content-center max-sm:gap-y-2">
            <Link href="/" className="shrink-0 whitespace-nowrap font-semibold tracking-tight">
              Loop Lab
            </Link>
            <nav
              aria-label="site"
              className="flex min-w-0 gap-3 whitespace-nowrap text-muted max-sm:order-last max-sm:basis-full"
              data-testid="site-nav"
            >
              <NavLink href="/" className="hover:text-fg">
                Playground
              </NavLink>
              <NavLink href="/runs" className="hover:text-fg">
                Runs
              </NavLink>
              <NavLink href="/sweeps" className="hover:text-fg">
                Sweeps
              </NavLink>
              <NavLink href="/tasks" className="hover:text-fg">
                Tasks
              </NavLink>
              <NavLink href="/lessons" className="hover:text-fg">
                Lessons
              </NavLink>
              <NavLink href="/glossary" className="hover:text-fg">
                Glossary
              </NavLink>
            </nav>
            <span className="ml-auto hidden text-2xs text-faint lg:inline">
              keys: r run · a / Esc abort · j k turns · i inspector (Esc closes it)
            </span>
            <div className="max-lg:ml-auto">
              <ThemeToggle />
            </div>
          </header>
          {/* Room mode: the teacher's "open this" (nothing outside a room). */}
          <RoomNotices />
          <main id="main" tabIndex={-1} className="outline-none">
            {children}
          </main>
        </QueryProvider>
      </body>
    </html>
  );
}
