import type { Metadata } from 'next';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { QueryProvider } from '@/lib/client/query-provider';
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
          {/* Below 640 px the links take a row of their own rather than hide behind a sideways scroll. */}
          <header className="flex h-(--header-h) flex-wrap items-center gap-x-4 border-b border-line bg-panel px-4 max-sm:content-center max-sm:gap-y-2">
            <Link href="/" className="shrink-0 whitespace-nowrap font-semibold tracking-tight">
              Loop Lab
            </Link>
            <nav className="flex min-w-0 gap-3 whitespace-nowrap text-muted max-sm:order-last max-sm:basis-full" data-testid="site-nav">
              <Link href="/" className="hover:text-fg">
                Playground
              </Link>
              <Link href="/runs" className="hover:text-fg">
                Runs
              </Link>
              <Link href="/sweeps" className="hover:text-fg">
                Sweeps
              </Link>
              <Link href="/lessons" className="hover:text-fg">
                Lessons
              </Link>
              <Link href="/glossary" className="hover:text-fg">
                Glossary
              </Link>
            </nav>
            <span className="ml-auto hidden text-2xs text-faint lg:inline">
              keys: r run · a / Esc abort · j k turns · i inspector
            </span>
            <div className="max-lg:ml-auto">
              <ThemeToggle />
            </div>
          </header>
          {children}
        </QueryProvider>
      </body>
    </html>
  );
}
