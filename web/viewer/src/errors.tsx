// Error boxes: whatever goes wrong (a spec the renderer rejects, an unknown
// component, a component that throws) is drawn in the frame, naming the
// problem. A frame is never left blank.

import { Component, type ReactNode } from "react";
import { errorText } from "./frame";

/** ErrorBox is the error message drawn in place of what failed. */
export function ErrorBox({ title, detail, children }: { title: string; detail?: string; children?: ReactNode }) {
  return (
    <div className="pmx-error" role="alert">
      <div className="pmx-error-title">{title}</div>
      {detail ? <pre className="pmx-error-detail">{detail}</pre> : null}
      {children}
    </div>
  );
}

interface BoundaryProps {
  /** what is rendered inside, for the message ("component BarChart") */
  name: string;
  children?: ReactNode;
}

/**
 * Boundary catches a render error below it and shows an ErrorBox naming
 * the failing part, where @json-render/react's own boundary would draw
 * nothing.
 */
export class Boundary extends Component<BoundaryProps, { error: unknown }> {
  state = { error: null as unknown };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  render() {
    if (this.state.error !== null) {
      return <ErrorBox title={`${this.props.name} failed to render`} detail={errorText(this.state.error)} />;
    }
    return this.props.children;
  }
}
