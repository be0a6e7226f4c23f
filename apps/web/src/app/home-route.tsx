import { ArrearsCard } from '../features/arrears/arrears-card.tsx';
import { HomePage } from '../features/dashboard/home-page.tsx';

/** Home, with the arrears card of the Arrears feature in the dashboard (features do not import each other). */
export const HomeRoute = () => <HomePage summary={<ArrearsCard />} />;
