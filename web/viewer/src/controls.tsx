// Button and Badge with the canvas catalog's variants. The shadcn set knows
// fewer (its Button maps only danger and secondary), so specs written for
// the canvas (success, outline, ghost, info, warning…) would lose their
// meaning there.

import type { BaseComponentProps } from "@json-render/react";

const buttonBase =
  "inline-flex h-9 items-center justify-center gap-2 rounded-md px-4 text-sm font-medium whitespace-nowrap " +
  "transition-colors outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50 " +
  "disabled:pointer-events-none disabled:opacity-50 cursor-pointer";

const buttonVariants: Record<string, string> = {
  primary: "bg-primary text-primary-foreground hover:bg-primary/90",
  secondary: "bg-secondary text-secondary-foreground hover:bg-secondary/80",
  destructive: "bg-destructive text-white hover:bg-destructive/90",
  danger: "bg-destructive text-white hover:bg-destructive/90",
  success: "bg-success text-success-foreground hover:bg-success/90",
  outline: "border border-input bg-transparent hover:bg-accent hover:text-accent-foreground",
  ghost: "hover:bg-accent hover:text-accent-foreground",
};

interface ButtonProps {
  label?: string | null;
  disabled?: boolean | null;
  variant?: string | null;
}

/** Button emits "press"; the element's on.press binding runs its action. */
export function Button({ props, emit, loading }: BaseComponentProps<ButtonProps>) {
  const variant = buttonVariants[props.variant ?? "primary"] ?? buttonVariants.primary;
  return (
    <button
      type="button"
      data-slot="button"
      data-variant={props.variant ?? "primary"}
      className={`${buttonBase} ${variant}`}
      disabled={props.disabled === true || loading === true}
      onClick={() => emit("press")}
    >
      {props.label}
    </button>
  );
}

const badgeBase =
  "inline-flex w-fit shrink-0 items-center rounded-md border px-2 py-0.5 text-xs font-medium whitespace-nowrap";

const badgeVariants: Record<string, string> = {
  default: "border-transparent bg-primary text-primary-foreground",
  secondary: "border-transparent bg-secondary text-secondary-foreground",
  destructive: "border-transparent bg-destructive text-white",
  danger: "border-transparent bg-destructive text-white",
  error: "border-destructive/50 bg-destructive/15 text-destructive",
  outline: "border-border text-foreground",
  success: "border-success/50 bg-success/15 text-success",
  info: "border-info/50 bg-info/15 text-info",
  warning: "border-warning/50 bg-warning/15 text-warning",
};

interface BadgeProps {
  text?: string | null;
  variant?: string | null;
}

/** Badge is a small status label. */
export function Badge({ props }: BaseComponentProps<BadgeProps>) {
  const variant = badgeVariants[props.variant ?? "default"] ?? badgeVariants.default;
  return (
    <span data-slot="badge" className={`${badgeBase} ${variant}`}>
      {props.text}
    </span>
  );
}
