// RewindComponents: headless UI components as reducers. Filled by the components issues.
