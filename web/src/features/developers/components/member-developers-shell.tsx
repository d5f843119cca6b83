import { MemberSession } from '../../../auth/member-session';
import { MemberLayout } from '../../../components/member-layout';

/**
 * The signed-in shell (navigation bar, the member's notices) around the Developers page, which is routed
 * beside the member route set rather than in it, so members and visitors reach the same page.
 */
export default function MemberDevelopersShell() {
  return (
    <MemberSession>
      <MemberLayout />
    </MemberSession>
  );
}
